package dev.hmpagent.context;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Fences outside text as data for one tick's prompt: {@code <data id="NONCE">…</data id="NONCE">},
 * with a nonce the text cannot know in advance, so it cannot close the fence early. Remembers
 * what it fenced.
 */
final class DataFence {
    private final String nonce;
    private final List<AssembledPrompt.DataShown> shown = new ArrayList<>();

    DataFence(String nonce) {
        this.nonce = Objects.requireNonNull(nonce, "nonce");
        if (nonce.isBlank()) throw new IllegalArgumentException("nonce must not be blank");
    }

    /** {@code text} between this tick's fence lines. */
    String wrap(String source, String text) {
        shown.add(new AssembledPrompt.DataShown(source, text));
        return "\n<data id=\"" + nonce + "\">\n" + text + "\n</data id=\"" + nonce + "\">";
    }

    List<AssembledPrompt.DataShown> shown() {
        return List.copyOf(shown);
    }
}
