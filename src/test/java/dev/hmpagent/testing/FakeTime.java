package dev.hmpagent.testing;

import dev.hmpagent.cycle.TimeSource;
import java.time.Duration;
import java.util.Comparator;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * A {@link TimeSource} for one thread that never sleeps: a park jumps straight to its deadline, or to
 * the first scheduled happening before it, which then runs (as if another thread had acted meanwhile).
 * Time starts at 0 and moves the given {@link MutableClock} along with it, so the cycle's instants agree.
 */
public final class FakeTime implements TimeSource {
    private record Happening(long at, long order, Runnable action) { }

    private final MutableClock clock;
    private final PriorityQueue<Happening> happenings =
            new PriorityQueue<>(Comparator.comparingLong(Happening::at).thenComparingLong(Happening::order));
    private long now;
    private long scheduled;
    private boolean permit;

    public FakeTime(MutableClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public long nanoTime() {
        return now;
    }

    /** Work takes {@code d}: time moves on, running what was scheduled on the way. */
    public void advance(Duration d) {
        long until = now + d.toNanos();
        while (!happenings.isEmpty() && happenings.peek().at() <= until) runNext();
        moveTo(until);
    }

    /** At {@code t} after the start, {@code action} runs on the parked (or working) thread. */
    public void at(Duration t, Runnable action) {
        happenings.add(new Happening(t.toNanos(), scheduled++, Objects.requireNonNull(action, "action")));
    }

    @Override
    public void parkUntil(long deadline) {
        if (permit) {
            permit = false;
            return;
        }
        if (!happenings.isEmpty() && happenings.peek().at() <= deadline) {
            runNext();
            return;
        }
        moveTo(deadline);
    }

    @Override
    public void unpark(Thread thread) {
        permit = true;
    }

    private void runNext() {
        Happening h = happenings.poll();
        moveTo(h.at());
        h.action().run();
    }

    private void moveTo(long t) {
        if (t <= now) return;
        clock.advance(Duration.ofNanos(t - now));
        now = t;
    }
}
