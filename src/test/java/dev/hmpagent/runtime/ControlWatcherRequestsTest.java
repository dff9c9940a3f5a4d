package dev.hmpagent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.store.ControlRequestsDao;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The control channel carries more than halts: {@code agent spawn}'s request reaches the running agent's handler of
 * the other kinds, once, with its JSON; a halt still raises the signal and is handed to no one else.
 */
class ControlWatcherRequestsTest {
    @TempDir Path dir;

    @Test
    void a_spawn_request_is_handed_on_once_and_a_halt_raises_the_signal() {
        MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            StopSignal stops = StopSignal.over(store);
            AtomicInteger halts = new AtomicInteger();
            stops.onHalt(halts::incrementAndGet);
            List<ControlRequestsDao.Request> others = new CopyOnWriteArrayList<>();
            ControlWatcher watcher = new ControlWatcher(store, stops, () -> { }, others::add, line -> { });
            store.tables().controlRequests().add("spawn", "{\"name\": \"helper\"}", Requester.thisProcess());
            store.tables().controlRequests().add("halt", "enough", Requester.thisProcess());

            watcher.poll();
            watcher.poll();

            assertThat(others).extracting(ControlRequestsDao.Request::kind).containsExactly("spawn");
            assertThat(others.get(0).reason()).isEqualTo("{\"name\": \"helper\"}");
            assertThat(halts).hasValue(1);
            watcher.close();
        }
    }

    @Test
    void a_spawn_asked_for_while_the_agent_was_starting_is_still_handed_on_and_a_handled_one_is_not() {
        MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            long done = store.tables().controlRequests().add("spawn", "{\"name\": \"old\"}", Requester.thisProcess());
            store.tables().controlRequests().markHandled(done, 1);
            store.tables().controlRequests().add("spawn", "{\"name\": \"early\"}", Requester.thisProcess());
            List<ControlRequestsDao.Request> others = new CopyOnWriteArrayList<>();
            ControlWatcher watcher = new ControlWatcher(store, StopSignal.over(store), () -> { }, others::add,
                    line -> { });

            watcher.poll();

            assertThat(others).extracting(ControlRequestsDao.Request::reason).containsExactly("{\"name\": \"early\"}");
            watcher.close();
        }
    }

    @Test
    void a_halt_whose_stoppers_fail_still_runs_the_others_and_tells_the_person_in_one_line() {
        MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            StopSignal stops = StopSignal.over(store);
            List<String> ran = new CopyOnWriteArrayList<>();
            stops.onHalt(() -> {
                throw new IllegalStateException("kill -9 4242:\n Operation not permitted");
            });
            stops.onHalt(() -> ran.add("process trees"));
            stops.onHalt(() -> {
                throw new IllegalStateException("mcp server gone");
            });
            List<String> told = new CopyOnWriteArrayList<>();
            ControlWatcher watcher = new ControlWatcher(store, stops, () -> { }, r -> { }, told::add);
            store.tables().controlRequests().add("halt", "enough", Requester.thisProcess());

            watcher.poll();
            watcher.poll();

            assertThat(ran).containsExactly("process trees");
            assertThat(told).containsExactly("the halt could not stop everything: kill -9 4242: Operation not permitted"
                    + " (and 1 more failure); the agent is halted, but what failed may still be running (the agent's"
                    + " processes carry HMP_AGENT_PROC in their environment)");
            watcher.close();
        }
    }
}
