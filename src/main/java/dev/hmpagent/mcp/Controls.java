package dev.hmpagent.mcp;

import java.util.Objects;

/**
 * What {@code agent mcp serve} lets a peer do to the agent on its file: the same acts as {@code agent note},
 * {@code agent status}, {@code agent log} and {@code agent halt}, carried out by the code of those commands (the
 * composition root passes them in). Nothing here unlocks the agent or widens its policy or budget: those stay a
 * person's.
 */
public interface Controls {
    /** Stores a note from a peer (not a person: it ends no rest and resets no streak). */
    Answer note(String text, int priority, String tags);

    /** What {@code agent status --json} says. */
    Answer status();

    /** The latest {@code count} ticks, as {@code agent log -n count} (with {@code json}: {@code --json}) gives them. */
    Answer log(int count, boolean json);

    /** Tick {@code tick} whole, or (with {@code prompt}) exactly the prompt the LLM got at it. */
    Answer tick(long tick, boolean prompt, boolean json);

    /** What {@code agent halt --reason reason} does. */
    Answer halt(String reason);

    /** A tool's answer: its text, and whether it is a failure (then its text is one line saying why). */
    record Answer(boolean failed, String text) {
        public Answer {
            Objects.requireNonNull(text, "text");
        }

        public static Answer ok(String text) {
            return new Answer(false, text);
        }

        public static Answer failure(String line) {
            return new Answer(true, line);
        }
    }
}
