package dev.hmpagent.cycle;

import java.time.Duration;

/**
 * Which frame overruns are said: a loop one frame behind (a park that woke a little late on a busy machine, work a
 * hair over its frame) is counted in the loop's stats but not said; one more than a whole period behind is, at most
 * one line per {@link #GAP}, the overruns held back meanwhile counted in the next line. Tick thread only.
 */
final class OverrunLines {
    /** The least time between two overrun lines. */
    static final Duration GAP = Duration.ofSeconds(10);

    private boolean said;
    private long saidAt;
    private int heldBack;

    /** The line for the overrun {@code pace} of {@code what}, which took {@code took} ns, or null when none is said. */
    String line(Pace pace, String what, long took, double hz, long now) {
        if (pace.late() < 2) return null;
        if (said && now - saidAt < GAP.toNanos()) {
            heldBack++;
            return null;
        }
        String line = pace.overrun(what, took, hz)
                + (heldBack == 0 ? "" : " (" + heldBack + " more since the last such line)");
        said = true;
        saidAt = now;
        heldBack = 0;
        return line;
    }
}
