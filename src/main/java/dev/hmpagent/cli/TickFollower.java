package dev.hmpagent.cli;

import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.LoggedTick;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/** {@code agent log --follow}: hands over each tick that lands after a given one, looking again after every pause. */
final class TickFollower {
    /** Ticks read per query; more wait for the next query, without a pause. */
    static final int PAGE = 100;

    /** Waits before the next look at the file. */
    @FunctionalInterface
    interface Pause {
        /** @return false to stop following (interrupted, input or output ended) */
        boolean await();
    }

    private final AgentLogDao log;
    private final Consumer<LoggedTick> sink;
    private final Pause pause;

    TickFollower(AgentLogDao log, Consumer<LoggedTick> sink, Pause pause) {
        this.log = Objects.requireNonNull(log, "log");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.pause = Objects.requireNonNull(pause, "pause");
    }

    /** Follows until the pause says stop; returns the last tick id handed over. */
    long follow(long afterTickId) {
        long last = afterTickId;
        do {
            List<LoggedTick> page;
            do {
                page = log.loggedAfter(last, PAGE);
                for (LoggedTick t : page) {
                    sink.accept(t);
                    last = t.tick().tickId();
                }
            } while (page.size() == PAGE);
        } while (pause.await());
        return last;
    }
}
