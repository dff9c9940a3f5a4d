package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stop signal alone: halts heard in memory, and the persisted state read through its one port. */
class StopSignalTest {
    static final SafetyStatus ACTIVE = new SafetyStatus(SafetyState.ACTIVE, Optional.empty(), "",
            Instant.parse("2026-11-27T10:00:00Z"));
    static final SafetyStatus LOCKED = new SafetyStatus(SafetyState.SAFETY_LOCKOUT, Optional.empty(), "repeat",
            Instant.parse("2026-11-27T10:00:00Z"));

    @TempDir Path dir;

    @Test
    void a_mark_sees_only_the_halts_after_it() {
        StopSignal stops = new StopSignal(() -> ACTIVE);
        StopSignal.Since before = stops.since();
        assertThat(before.halted()).isFalse();
        stops.halt();
        StopSignal.Since after = stops.since();
        assertThat(before.halted()).isTrue();
        assertThat(after.halted()).isFalse();
        assertThat(before.sameHalts(after)).isFalse();
        assertThat(after.sameHalts(stops.since())).isTrue();
        assertThat(after.signal()).isSameAs(stops);
    }

    @Test
    void every_halt_runs_every_canceller_at_once_in_order() {
        StopSignal stops = new StopSignal(() -> ACTIVE);
        List<String> ran = new ArrayList<>();
        stops.onHalt(() -> ran.add("llm call"));
        stops.onHalt(() -> ran.add("comparison call"));
        stops.halt();
        stops.halt();
        assertThat(ran).containsExactly("llm call", "comparison call", "llm call", "comparison call");
    }

    @Test
    void a_stopper_that_throws_keeps_none_of_the_others_from_running_and_its_failure_is_thrown_after() {
        StopSignal stops = new StopSignal(() -> ACTIVE);
        List<String> ran = new ArrayList<>();
        stops.onHalt(() -> ran.add("llm call"));
        stops.onHalt(() -> {
            throw new IllegalStateException("mcp server gone");
        });
        stops.onHalt(() -> ran.add("process trees"));
        stops.onHalt(() -> {
            throw new IllegalStateException("second failure");
        });
        org.assertj.core.api.Assertions.assertThatThrownBy(stops::halt).hasMessage("mcp server gone")
                .satisfies(e -> assertThat(e.getSuppressed()).extracting(Throwable::getMessage)
                        .containsExactly("second failure"));
        assertThat(ran).as("every stopper ran").containsExactly("llm call", "process trees");
        assertThat(stops.since().halted()).isFalse();
    }

    @Test
    void a_raised_halt_flag_is_a_persisted_halt_until_it_is_lowered_whatever_the_file_says() {
        MutableClock clock = MutableClock.at("2026-11-27T10:00:00Z");
        try (Store agent = Store.open(dir.resolve("agent.db"), clock)) {
            StopSignal stops = StopSignal.over(agent);
            dev.hmpagent.store.HaltFlag flag = new dev.hmpagent.store.HaltFlag(agent.path());
            flag.raise("disk full", Requester.thisProcess());
            assertThat(stops.active()).isFalse();
            assertThat(stops.persisted().label()).isEqualTo("STOPPED(halt)");
            assertThat(stops.persisted().detail()).isEqualTo("disk full; agent.db.halt: the file could not take the halt");
            assertThat(StopSignal.persisted(agent).current().active()).as("the same port for any reader").isFalse();
            flag.lower();
            assertThat(stops.active()).as("the file's own state again").isTrue();
        }
    }

    @Test
    void a_raised_flag_is_read_without_the_file_whose_row_is_asked_only_when_no_flag_is_raised() {
        Path db = dir.resolve("gone.db");
        AtomicInteger rowReads = new AtomicInteger();
        StopSignal.Persisted state = StopSignal.persisted(db, () -> {
            rowReads.incrementAndGet();
            throw new IllegalStateException("the file cannot be opened");
        });
        new dev.hmpagent.store.HaltFlag(db).raise("", Requester.thisProcess());
        assertThat(state.current().label()).isEqualTo("STOPPED(halt)");
        assertThat(rowReads).as("the file was not asked").hasValue(0);
        new dev.hmpagent.store.HaltFlag(db).lower();
        org.assertj.core.api.Assertions.assertThatThrownBy(state::current).hasMessage("the file cannot be opened");
        assertThat(rowReads).hasValue(1);
    }

    @Test
    void the_persisted_state_is_read_through_the_port_at_every_ask_never_cached() {
        AtomicInteger reads = new AtomicInteger();
        SafetyStatus[] now = {ACTIVE};
        StopSignal stops = new StopSignal(() -> {
            reads.incrementAndGet();
            return now[0];
        });
        assertThat(stops.active()).isTrue();
        now[0] = LOCKED;
        assertThat(stops.active()).isFalse();
        assertThat(stops.persisted()).isEqualTo(LOCKED);
        assertThat(reads).hasValue(3);
        assertThat(stops.since().halted()).as("a lockout is no halt heard in memory").isFalse();
    }

    @Test
    void over_a_file_it_reads_a_halt_another_connection_committed() {
        MutableClock clock = MutableClock.at("2026-11-27T10:00:00Z");
        try (Store agent = Store.open(dir.resolve("agent.db"), clock);
             Store other = agent.connectAgain()) {
            StopSignal stops = StopSignal.over(agent);
            assertThat(stops.active()).isTrue();
            new SafetyControl(other).halt("enough", Requester.thisProcess());
            assertThat(stops.active()).isFalse();
            assertThat(stops.persisted().label()).isEqualTo("STOPPED(halt)");
        }
    }

    @Test
    void the_watcher_polls_every_20_ms() {
        assertThat(StopSignal.POLL_MILLIS).isEqualTo(20);
        assertThat(StopSignal.POLL).isEqualTo(Duration.ofMillis(20));
    }
}
