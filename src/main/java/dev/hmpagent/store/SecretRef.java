package dev.hmpagent.store;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where a secret lives, never the secret: {@code env:VARIABLE} (an environment variable of the agent's process) or
 * {@code keyring:entry} (an entry of the system keyring). {@code external_accounts.secret_ref} holds one; the
 * column's CHECK refuses any other shape, and {@link #parse} also refuses a name that looks like a secret itself
 * (a token pasted where its location belongs).
 */
public record SecretRef(Kind kind, String name) {

    /** The two places hmp-agent can look a secret up. */
    public enum Kind {
        ENV("env"), KEYRING("keyring");

        private final String prefix;

        Kind(String prefix) { this.prefix = prefix; }

        public String prefix() { return prefix; }
    }

    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");
    private static final Pattern KEYRING_ENTRY = Pattern.compile("[-A-Za-z0-9_.@/]{1,128}");
    /** How well-known tokens begin (OpenAI, Stripe, GitHub, GitLab, Slack, Google, Hugging Face, npm, PyPI, JWT). */
    private static final List<String> TOKEN_PREFIXES = List.of("sk-", "sk_", "pk_live", "rk_live", "ghp_", "gho_",
            "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "AIza", "ya29.", "hf_",
            "npm_", "pypi-", "eyJ");
    private static final Pattern KEY_CHARS = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Pattern JWT_CHARS = Pattern.compile("[A-Za-z0-9_.-]+");
    /** An AWS access key id: AKIA (long-term) or ASIA (temporary) and 16 upper-case letters and digits. */
    private static final Pattern AWS_KEY_ID = Pattern.compile("(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])");
    /** After a token prefix, this much more with a digit in it makes a token (a name like npm_config_x has none). */
    private static final int TOKEN_TAIL = 12;
    /**
     * The shortest text {@link #looksLikeKey} can take for a key: "-----BEGIN" (an AWS key id is 20, the shortest
     * prefix and its tail 15); most words of a reply are shorter, and are judged by their length alone.
     */
    public static final int MIN_KEY_LENGTH = 10;
    /** A piece of a name this long that mixes letters and digits is a key, not a name people give. */
    private static final int TOKEN_RUN = 20;

    public SecretRef {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
    }

    /**
     * Reads {@code env:NAME} or {@code keyring:entry}.
     *
     * @throws IllegalArgumentException with a one-line message that says what a location looks like; the message
     *         never repeats the value (it may be a secret)
     */
    public static SecretRef parse(String text) {
        Objects.requireNonNull(text, "text");
        String s = text.strip();
        SecretRef ref;
        if (s.startsWith("env:") && ENV_NAME.matcher(s.substring(4)).matches()) {
            ref = new SecretRef(Kind.ENV, s.substring(4));
        } else if (s.startsWith("keyring:") && KEYRING_ENTRY.matcher(s.substring(8)).matches()) {
            ref = new SecretRef(Kind.KEYRING, s.substring(8));
        } else {
            throw new IllegalArgumentException("a secret location is env:VARIABLE_NAME or keyring:entry "
                    + "(e.g. env:REDDIT_TOKEN, keyring:hmp-agent/reddit), never the secret itself");
        }
        if (looksLikeSecret(ref.name())) {
            throw new IllegalArgumentException("that looks like a secret, not where one lives: put the secret in an "
                    + "environment variable or a keyring entry and give its name (e.g. env:REDDIT_TOKEN)");
        }
        return ref;
    }

    /**
     * True for text shaped like a key or token where it is stored or typed: {@link #looksLikeKey}, or a piece (between
     * {@code _ . / : @ -} and spaces) of at least 20 characters that mixes letters and digits. Names such as
     * {@code OPENAI_API_KEY}, {@code AWS_REGION} or {@code hmp-agent/reddit-bot} pass. For where a secret lives, not
     * for free text: a hash or an id is such a piece too.
     */
    public static boolean looksLikeSecret(String text) {
        String s = text.strip();
        if (looksLikeKey(s)) return true;
        // one pass, nothing copied: a reply of megabytes is judged in milliseconds
        int length = 0;
        boolean digit = false;
        boolean letter = false;
        for (int i = 0; i <= s.length(); i++) {
            char c = i < s.length() ? s.charAt(i) : ' ';
            if (c == '_' || c == '.' || c == '/' || c == ':' || c == '@' || c == '-' || Character.isWhitespace(c)) {
                if (length >= TOKEN_RUN && digit && letter) return true;
                length = 0;
                digit = false;
                letter = false;
            } else {
                length++;
                digit |= Character.isDigit(c);
                letter |= Character.isLetter(c);
            }
        }
        return false;
    }

    /**
     * True for a word in a provider's key format: a private key block, a well-known token prefix ({@code sk-},
     * {@code sk-ant-}, {@code ghp_}, {@code github_pat_}, {@code glpat-}, {@code xoxb-}, {@code AIza}…) followed by at
     * least 12 more characters with a digit among them, or an AWS access key id ({@code AKIA} and 16 more). A bare hex
     * hash, a git SHA, a UUID or a file name holding one is no key.
     */
    public static boolean looksLikeKey(String text) {
        String s = text.strip();
        if (s.length() < MIN_KEY_LENGTH) return false;
        if (s.contains("-----BEGIN")) return true;
        if (AWS_KEY_ID.matcher(s).find()) return true;
        for (int i = 0; i < s.length(); i++) {
            if (i > 0 && (Character.isLetterOrDigit(s.charAt(i - 1)) || s.charAt(i - 1) == '_' || s.charAt(i - 1) == '-')) {
                continue;   // a prefix counts where a word or a piece of one (after : / @ =) begins
            }
            for (String prefix : TOKEN_PREFIXES) {
                if (s.startsWith(prefix, i) && tokenTail(s, i + prefix.length(), prefix)) return true;
            }
        }
        return false;
    }

    /**
     * After a token prefix: at least 12 more characters with a digit among them, of the characters keys are made of
     * (a JWT and a Google OAuth token also have dots); up to the end or to a character keys never hold.
     */
    private static boolean tokenTail(String s, int from, String prefix) {
        Pattern chars = prefix.equals("eyJ") || prefix.equals("ya29.") ? JWT_CHARS : KEY_CHARS;
        // read in place (a region, not a copy of the rest: that was quadratic on a long text with many "sk-" words)
        java.util.regex.Matcher m = chars.matcher(s).region(from, s.length());
        if (!m.lookingAt()) return false;
        int end = m.end();
        // a dot between two more characters makes a file name (sk-learn-0.24.whl), not a key followed by a full stop
        boolean ends = end == s.length() || !Character.isLetterOrDigit(s.charAt(end))
                && (s.charAt(end) != '.' || end + 1 == s.length() || !Character.isLetterOrDigit(s.charAt(end + 1)));
        if (!ends || end - from < TOKEN_TAIL) return false;
        for (int i = from; i < end; i++) {
            if (Character.isDigit(s.charAt(i))) return true;
        }
        return false;
    }

    /** As stored and shown: {@code env:NAME} or {@code keyring:entry}. */
    @Override
    public String toString() {
        return kind.prefix() + ":" + name;
    }
}
