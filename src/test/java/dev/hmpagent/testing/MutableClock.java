package dev.hmpagent.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock tests move by hand. */
public final class MutableClock extends Clock {
    private volatile Instant now;
    private volatile Duration step = Duration.ZERO;

    public MutableClock(Instant start) {
        this.now = start;
    }

    public static MutableClock at(String iso) {
        return new MutableClock(Instant.parse(iso));
    }

    public void advance(Duration d) {
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
        return t;
    }
}
