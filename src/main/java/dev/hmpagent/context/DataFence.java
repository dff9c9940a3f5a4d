package dev.hmpagent.context;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Fences outside text as data: {@code <data id="NONCE">…</data id="NONCE">}. What makes the fence safe is that the
 * text inside cannot close it early (nor open a fence of its own): the assembler checks with {@link #onlyInFences}
 * that the nonce occurs nowhere in the prompt but in the fence lines, and fences again with a new nonce when it
 * does. So the nonce need not change every tick: the assembler keeps one secret random nonce for the run, and the
 * fenced contexts stay byte-identical from tick to tick when their text did not change (a provider's prompt cache
 * can reuse them).
 */
final class DataFence {
    /** Letters, digits, '-' and '_', at least 8: it cannot overlap the quotes and brackets of a fence line. */
    private static final Pattern NONCE = Pattern.compile("[A-Za-z0-9_-]{8,}");

    /** Fenced text for the prompt, and what it showed as data. */
    record Fenced(String text, AssembledPrompt.DataShown shown) { }

    private final String nonce;

    DataFence(String nonce) {
        this.nonce = Objects.requireNonNull(nonce, "nonce");
        if (!NONCE.matcher(nonce).matches()) {
            throw new IllegalArgumentException("a nonce is at least 8 letters, digits, '-' or '_': \"" + nonce + "\"");
        }
    }

    /** {@code text} between the fence lines. */
    Fenced wrap(String source, String text) {
        return new Fenced("\n<data id=\"" + nonce + "\">\n" + text + "\n</data id=\"" + nonce + "\">",
                new AssembledPrompt.DataShown(source, text));
    }

    /**
     * Whether the nonce occurs in a prompt of these two messages, which hold {@code fences} fenced texts, only in
     * their fence lines: exactly twice per fence (overlapping occurrences count), so no text inside a fence, and none
     * outside, shows it. Each message is searched on its own, without a copy of both: no occurrence can span from
     * one to the other (a nonce is letters, digits, '-' and '_').
     */
    boolean onlyInFences(String system, String user, int fences) {
        return count(system) + count(user) == 2 * fences;
    }

    private int count(String text) {
        int count = 0;
        for (int at = text.indexOf(nonce); at >= 0; at = text.indexOf(nonce, at + 1)) count++;
        return count;
    }
}
