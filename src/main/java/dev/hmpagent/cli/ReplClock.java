package dev.hmpagent.cli;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Redraws what counts time on the REPL's screen ("thinking… 12 s", a retry's "next in 16 s", the status line) once
 * a second, on a daemon thread of its own. A screen without a live region needs no clock: none is started.
 */
final class ReplClock implements AutoCloseable {
    private final ScheduledExecutorService timer;

    private ReplClock(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    static ReplClock start(boolean needed, Runnable redraw) {
        if (!needed) return new ReplClock(null);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "repl-clock");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                redraw.run();
            } catch (RuntimeException e) {
                // a redraw that failed this second is tried again the next
            }
        }, 1, 1, TimeUnit.SECONDS);
        return new ReplClock(timer);
    }

    @Override
    public void close() {
        if (timer != null) timer.shutdownNow();
    }
}
