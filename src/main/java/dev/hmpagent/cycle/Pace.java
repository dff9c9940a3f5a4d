package dev.hmpagent.cycle;

import dev.hmpagent.text.Text;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.Objects;

/**
 * A {@link Pacer}'s answer after an iteration: when the next one runs, and what it decided on the way.
 *
 * @param waiting  how the loop waits before the next iteration
 * @param due      the {@link TimeSource#nanoTime()} reading at which the wait ends (unused with {@link Wait#NONE})
 * @param catchUp  the next iteration runs a missed frame late: it answers what arrived but does not think
 *                 unprompted ({@link Cycle#tick(boolean)})
 * @param late     frames whose time had already passed when this was decided; more than 0 means the last
 *                 iteration overran its frame
 * @param skipped  how many of those late frames will never run (the rest are caught up back to back)
 */
public record Pace(Wait waiting, long due, boolean catchUp, long late, long skipped) {

    /** How the loop waits for the next iteration. */
    public enum Wait {
        /** Not at all: the next iteration runs at once. */
        NONE,
        /** Until {@code due}; {@link TickLoop#wake()} does not end it early (frames are the clock). */
        UNTIL_DUE,
        /** Until {@code due} or {@link TickLoop#wake()}, whichever comes first. */
        UNTIL_DUE_OR_WOKEN
    }

    public Pace {
        Objects.requireNonNull(waiting, "waiting");
        if (late < 0 || skipped < 0 || skipped > late) {
            throw new IllegalArgumentException("late " + late + ", skipped " + skipped);
        }
    }

    /** The next iteration runs at once, on time. */
    public static Pace atOnce() {
        return new Pace(Wait.NONE, 0, false, 0, 0);
    }

    /** Frames the next iterations run back to back to make up for an overrun (counting the next one). */
    public long caughtUp() {
        return late - skipped;
    }

    /**
     * E.g. "tick 12 took 3.4 s: skipped 6 frames at 2 Hz", for {@code what} (a tick, an idle frame) that overran; when
     * it took less than a frame, the loop woke late (a busy machine) and the line says that, not what it took.
     */
    String overrun(String what, long tookNanos, double hz) {
        String done = caughtUp() == 0 ? "skipped " + Text.count(skipped, "frame", "frames")
                : "catching up " + Text.count(caughtUp(), "frame", "frames")
                        + (skipped == 0 ? "" : ", skipped " + skipped + " beyond run.max_catch_up");
        String why = tookNanos < 1e9 / hz ? "the loop woke late (the machine is busy)"
                : what + " took " + took(tookNanos);
        return why + ": " + done + " at "
                + BigDecimal.valueOf(hz).stripTrailingZeros().toPlainString() + " Hz";
    }

    private static String took(long nanos) {
        if (nanos < 1_000_000_000L) return Math.max(1, nanos / 1_000_000) + " ms";
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }
}
