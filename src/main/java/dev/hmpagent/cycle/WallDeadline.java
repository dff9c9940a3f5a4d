package dev.hmpagent.cycle;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * An end time kept as wall time (in the database, so a restart still knows it) and waited for on the monotonic
 * clock: the first time an end is seen, what is left of it by the wall clock is taken once, bounded by the longest it
 * can last, and from then on only {@link TimeSource#nanoTime()} counts. A wall clock stepped back or forward (an NTP
 * step, a VM restored from a snapshot, {@code date -s}) then neither stretches nor cuts the wait. One end at a time;
 * the thread that waits only.
 */
final class WallDeadline {
    private final Clock clock;
    private final TimeSource time;
    /** What identifies the end being waited for (the stored value it came from), or null before the first. */
    private Object seen;
    private long due;

    WallDeadline(Clock clock, TimeSource time) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.time = Objects.requireNonNull(time, "time");
    }

    /**
     * Whether the end {@code until} has come; {@code key} names it (a new key starts a new wait), {@code longest} is
     * the most it can be away when first seen (a wall clock stepped back before that cannot make it longer).
     */
    boolean passed(Object key, Instant until, Duration longest) {
        if (!key.equals(seen)) {
            Duration left = Duration.between(clock.instant(), until);
            if (left.compareTo(longest) > 0) left = longest;
            if (left.isNegative()) left = Duration.ZERO;
            seen = key;
            due = time.nanoTime() + left.toNanos();
        }
        return time.nanoTime() - due >= 0;
    }

    /** When ({@link TimeSource#nanoTime()}) the end last asked about comes. */
    long due() {
        return due;
    }
}
