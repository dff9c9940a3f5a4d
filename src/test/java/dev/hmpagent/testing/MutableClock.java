package dev.hmpagent.testing;

import dev.hmpagent.cycle.TimeSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock tests move by hand. It keeps a monotonic reading too ({@link #monotonic()}): time that passes
 * ({@link #advance}) moves both; a step of the wall clock alone ({@link #stepWall}: NTP, {@code date -s}, a VM
 * restored from a snapshot) moves only the wall.
 */
public final class MutableClock extends Clock {
    private volatile Instant now;
    private volatile Duration step = Duration.ZERO;
    /** Nanoseconds that passed since the start: the monotonic reading. */
    private volatile long elapsed;

    public MutableClock(Instant start) {
        this.now = start;
    }

    public static MutableClock at(String iso) {
        return new MutableClock(Instant.parse(iso));
    }

    public synchronized void advance(Duration d) {
        now = now.plus(d);
        elapsed += d.toNanos();
    }

    /** The wall clock jumps by {@code d} (back when negative); no time passes. */
    public synchronized void stepWall(Duration d) {
        now = now.plus(d);
    }

    @Override
    public ZoneId getZone() { return ZoneOffset.UTC; }

    @Override
    public Clock withZone(ZoneId zone) { return this; }

    /** From now on every reading moves the clock on by {@code d} (time passes while the code looks at it). */
    public void advanceOnEveryReading(Duration d) {
        step = d;
    }

    @Override
    public synchronized Instant instant() {
        Instant t = now;
        now = now.plus(step);
        elapsed += step.toNanos();
        return t;
    }

    /**
     * The monotonic reading of this clock as a {@link TimeSource}, for the code that measures waits: it moves with
     * {@link #advance}, not with {@link #stepWall}; a park moves the clock to its deadline (tests never sleep).
     */
    public TimeSource monotonic() {
        return new TimeSource() {
            @Override
            public long nanoTime() {
                synchronized (MutableClock.this) {
                    long t = elapsed;
                    now = now.plus(step);   // as a reading of the wall: time passes while the code looks
                    elapsed += step.toNanos();
                    return t;
                }
            }

            @Override
            public void parkUntil(long deadline) {
                synchronized (MutableClock.this) {
                    if (deadline > elapsed) advance(Duration.ofNanos(deadline - elapsed));
                }
            }

            @Override
            public void unpark(Thread thread) { }
        };
    }
}
