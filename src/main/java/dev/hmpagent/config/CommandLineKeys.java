package dev.hmpagent.config;

import java.util.regex.Pattern;

/**
 * Refuses a key given on the command line ({@code --set llm.api_key=…}, an inline table with an {@code api_key}, a URL
 * with {@code user:password@} or a {@code ?key=…}): a command line is visible to every process of the user, through
 * {@code ps} and {@code /proc/PID/cmdline}. The refusal never repeats the value.
 */
final class CommandLineKeys {
    /** What a secret is named, at the end of a dotted key or a field ({@code llm.api_key}, {@code api_key}, {@code token}). */
    private static final String SECRET_WORD = "(?:api_?key|password|passwd|secret|token|private_?key|credentials?)";
    private static final Pattern SECRET_KEY = Pattern.compile("(?i)(?:.*[._-])?" + SECRET_WORD);
    /** A field of an inline table or list set to something: {@code api_key = "…"}, {@code "token": …}. */
    private static final Pattern SECRET_FIELD = Pattern.compile("(?i)(?:^|[^\\w-])[\"']?(?:[\\w-]*[_-])?" + SECRET_WORD
            + "[\"']?\\s*[=:]");
    /** A URL with credentials before its host. */
    private static final Pattern URL_USER = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://[^/@?#\\s\"']*@");
    /** A query parameter named like a key ({@code ?key=…}, {@code &access_token=…}). */
    private static final Pattern URL_KEY = Pattern.compile("(?i)[?&](?:[\\w-]*[_-])?(?:key|" + SECRET_WORD + ")=");

    static final String ADVICE = "put keys in the environment or the key file";

    private CommandLineKeys() {
    }

    /**
     * @param name  the dotted key, e.g. {@code llm.api_key}
     * @param label how the flag was spelled, e.g. {@code --set llm.api_key} or {@code --base-url}
     * @throws ConfigException naming the flag and what to do, never the value
     */
    static void refuseKeys(String name, String label, String raw) {
        String what;
        if (SECRET_KEY.matcher(name).matches()) what = "a key";
        else if (SECRET_FIELD.matcher(raw).find()) what = "a value with a key in it";
        else if (URL_USER.matcher(raw).find() || URL_KEY.matcher(raw).find()) what = "a URL with credentials in it";
        else return;
        throw new ConfigException(label + " gives " + what + " on the command line, which every process of the user"
                + " can read: " + ADVICE + " (OPENAI_API_KEY, ANTHROPIC_API_KEY, the variable llm.api_key_env names,"
                + " or llm.api_key in ~/.config/hmp-agent/agent.toml)");
    }
}
