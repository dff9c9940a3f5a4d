package dev.hmpagent.commands;

import dev.hmpagent.store.SecretRef;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What of an LLM reply may be kept: every stored copy of a reply ({@code llm_recent_responses}, the prompts that show
 * it again, error rows quoting it, the thought on the terminal) goes through {@link #redact}. The rule is the one
 * {@link CommandQueue} applies to command arguments: a value under a secret name ({@code "password": "…"},
 * {@code API_KEY=…}) and text shaped like a provider's key or token ({@link SecretRef#looksLikeKey}: {@code sk-…},
 * {@code ghp_…}, {@code AKIA…}, a private key block; never a bare hex hash, id or UUID, which the LLM needs to tell
 * its own commands apart); and the secrets this agent was configured with, wherever they stand. The commands themselves are parsed from the reply as it came and run with
 * the real values.
 */
public final class ReplySecrets {
    /** Only the shape rules: no configured key is known. */
    public static final ReplySecrets SHAPES_ONLY = new ReplySecrets(List.of());
    /** A known value shorter than this is not searched for: it would blot out ordinary words. */
    static final int MIN_KNOWN_LENGTH = 8;

    /** {@code "name": "value"}, the name of a JSON field and its string value (possessive: a long value, no deep recursion). */
    private static final Pattern JSON_FIELD = Pattern.compile("\"([\\w-]{1,64})\"(\\s*:\\s*)\"((?:[^\"\\\\]++|\\\\.)*+)\"");
    /** {@code NAME=value}, as in a shell command or an environment listing. */
    private static final Pattern ASSIGNMENT = Pattern.compile("(?<![\\w-])([A-Za-z_][\\w-]{0,63})=([^\\s\"'`;&|]+)");
    /** A private key block, to its end (or the end of the text). */
    private static final Pattern KEY_BLOCK = Pattern.compile(
            "-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\\s\\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\\z)");
    /** A word between spaces, quotes, brackets and shell punctuation: what {@link SecretRef#looksLikeKey} judges. */
    private static final Pattern WORD = Pattern.compile("[^\\s\"'`=<>(){}\\[\\],;|&\\\\]+");

    private final SecretForms known;

    /** @param known the configured secrets (blank and short ones are ignored) */
    public ReplySecrets(Collection<String> known) {
        this.known = new SecretForms(Objects.requireNonNull(known, "known").stream().filter(Objects::nonNull)
                .map(String::strip).filter(k -> k.length() >= MIN_KNOWN_LENGTH).distinct()
                .sorted(Comparator.comparingInt(String::length).reversed()).toList());
    }

    /** {@code text} with every secret replaced by {@value CommandQueue#REDACTED}; text without one comes back equal. */
    public String redact(String text) {
        Objects.requireNonNull(text, "text");
        String out = redactKnown(text);
        out = replace(KEY_BLOCK, out, m -> CommandQueue.REDACTED);
        out = replace(JSON_FIELD, out, m -> named(m.group(1)) && !m.group(3).isEmpty()
                ? "\"" + m.group(1) + "\"" + m.group(2) + "\"" + CommandQueue.REDACTED + "\"" : null);
        // every assignment holds a '=': a reply without one (most) is not searched, over half of redact's time
        if (out.indexOf('=') >= 0) {
            out = replace(ASSIGNMENT, out, m -> named(m.group(1)) ? m.group(1) + "=" + CommandQueue.REDACTED : null);
        }
        return replace(WORD, out, ReplySecrets::keyWord);
    }

    /**
     * {@code text} with only the configured secrets replaced, in every form {@link SecretForms} finds (reversed,
     * spaced out, base64): for what a command printed or a file holds, where the shape rules would blot out text the
     * LLM needs.
     */
    public String redactKnown(String text) {
        Objects.requireNonNull(text, "text");
        return known.redact(text, CommandQueue.REDACTED);
    }

    /**
     * {@code text} as a command's result is stored, shown to the model and printed: the configured secrets in every
     * form ({@link #redactKnown}), private key blocks and words in a provider's key format ({@link
     * SecretRef#looksLikeKey}); hashes, ids and names stay as they are.
     */
    public String redactResult(String text) {
        Objects.requireNonNull(text, "text");
        String out = replace(KEY_BLOCK, redactKnown(text), m -> CommandQueue.REDACTED);
        return replace(WORD, out, ReplySecrets::keyWord);
    }

    /** {@value CommandQueue#REDACTED} for a word in a key's format, else null (kept); a short word is never one. */
    private static String keyWord(Matcher m) {
        return m.end() - m.start() >= SecretRef.MIN_KEY_LENGTH && SecretRef.looksLikeKey(m.group())
                ? CommandQueue.REDACTED : null;
    }

    private static boolean named(String name) {
        return CommandQueue.SECRET_NAMES.matcher(name).matches();
    }

    /**
     * {@code text} with each match of {@code pattern} replaced, literally, by what {@code with} makes of it (null:
     * left as it is); a match left as it was costs no copy (most words of a reply are no secret), and text with no
     * change comes back as is.
     */
    private static String replace(Pattern pattern, String text, java.util.function.Function<Matcher, String> with) {
        Matcher m = pattern.matcher(text);
        StringBuilder out = null;
        int copied = 0;
        while (m.find()) {
            String replacement = with.apply(m);
            if (replacement == null) continue;
            if (replacement.length() == m.end() - m.start()
                    && text.regionMatches(m.start(), replacement, 0, replacement.length())) continue;
            if (out == null) out = new StringBuilder(text.length());
            out.append(text, copied, m.start()).append(replacement);
            copied = m.end();
        }
        if (out == null) return text;
        return out.append(text, copied, text.length()).toString();
    }
}
