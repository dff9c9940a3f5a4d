package dev.hmpagent.repl;

import java.util.List;
import org.jline.utils.AttributedString;

/**
 * Where the REPL draws: lines printed above the prompt for good (the transcript), a live region just above the
 * prompt that is redrawn in place (a reply streaming, "thinking… 12 s", a retry counting down), and a status line
 * at the bottom. A terminal that cannot move the cursor (dumb, a pipe) has no live region and no status line.
 */
public interface Screen {
    /** Prints {@code line} (several lines allowed) above the prompt, for good. */
    void above(AttributedString line);

    /**
     * Prints an answer to the person (a message, a reply's prose) above the prompt, for good. A screen that keeps
     * answers apart from the rest (a pipe: answers on stdout, everything else on stderr) overrides this.
     */
    default void answer(AttributedString line) {
        above(line);
    }

    /**
     * A bare answer (a one-shot's, without "agent> "): its markdown rendered when styles reach the person (a terminal,
     * or CLICOLOR_FORCE), else the text as the model wrote it.
     */
    default void bareAnswer(String text) {
        answer(styled() ? Markdown.render(text) : new AttributedString(text));
    }

    /** Replaces the live region with {@code lines} (empty: no region). */
    void live(List<AttributedString> lines);

    /** Replaces the status line(s) (empty: none). */
    void status(List<AttributedString> lines);

    /** Whether live and status lines are shown at all. */
    boolean hasLiveRegion();

    /** Columns available for a line. */
    int width();

    /** Whether styles reach the person (colour on): then the agent's markdown is rendered, else shown as written. */
    default boolean styled() {
        return false;
    }
}
