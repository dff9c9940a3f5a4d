package dev.hmpagent.testing;

import dev.hmpagent.cycle.TimeSource;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link TimeSource} for a whole running agent that is faster than the machine's: a park gives other threads a
 * moment of real time (a process, an HTTP reply, a control request) and then jumps to its deadline, moving the given
 * {@link MutableClock} by as much, so a frame of {@code agent run --hz 10} takes about {@value #REAL_MICROS} µs of
 * real time and the cycle's instants agree with the loop's. An {@link #unpark} (a result arrived, a note) ends the
 * park where it is, as with the real time. Thread-safe: the tick thread parks, any thread may unpark.
 */
public final class FastTime implements TimeSource {
    /** Real time a park gives the other threads before it jumps. */
    static final long REAL_MICROS = 200;

    private final MutableClock clock;
    private long now;
    private boolean permit;

    public FastTime(MutableClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public synchronized long nanoTime() {
        return now;
    }

    @Override
    public void parkUntil(long deadline) {
        synchronized (this) {
            if (take()) return;
        }
        LockSupport.parkNanos(this, REAL_MICROS * 1_000);
        synchronized (this) {
            if (take()) return;
            if (deadline > now) {
                clock.advance(Duration.ofNanos(deadline - now));
                now = deadline;
            }
        }
    }

    private boolean take() {
        boolean had = permit;
        permit = false;
        return had;
    }

    @Override
    public void unpark(Thread thread) {
        synchronized (this) {
            permit = true;
        }
        LockSupport.unpark(thread);
    }
}
