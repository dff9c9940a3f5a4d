package dev.hmpagent.context;

import java.util.Objects;

/**
 * Fences outside text as data for one tick's prompt: {@code <data id="NONCE">…</data id="NONCE">},
 * with a nonce the text cannot know in advance, so it cannot close the fence early.
 */
final class DataFence {
    /** Fenced text for the prompt, and what it showed as data. */
    record Fenced(String text, AssembledPrompt.DataShown shown) { }

    private final String nonce;

    DataFence(String nonce) {
        this.nonce = Objects.requireNonNull(nonce, "nonce");
        if (nonce.isBlank()) throw new IllegalArgumentException("nonce must not be blank");
    }

    /** {@code text} between this tick's fence lines. */
    Fenced wrap(String source, String text) {
        return new Fenced("\n<data id=\"" + nonce + "\">\n" + text + "\n</data id=\"" + nonce + "\">",
                new AssembledPrompt.DataShown(source, text));
    }
}
