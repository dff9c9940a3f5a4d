package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.safety.SafetyState;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.safety.StopReason;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.store.SafetyDao;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gate tells a person of the state changes nobody else told: a halt, a stop found at the start, and who unlocked
 * from another shell and why. A lockout the monitor made was said by the monitor, once, when it came.
 */
class SafetyGateTest {
    static final Instant T = Instant.parse("2026-11-29T03:15:28Z");
    static final SafetyStatus ACTIVE = new SafetyStatus(SafetyState.ACTIVE, Optional.empty(), "", T);

    @TempDir Path dir;
    final RecordingSink sink = new RecordingSink();
    final AtomicReference<SafetyStatus> state = new AtomicReference<>(ACTIVE);
    final AtomicReference<Optional<SafetyDao.Audit>> audit = new AtomicReference<>(Optional.empty());

    SafetyGate gate() {
        return new SafetyGate(new StopSignal(state::get), sink,
                UnaryOperator.<SafetyStatus>identity(), audit::get);
    }

    static SafetyDao.Audit unlock(long pid, String user) {
        return new SafetyDao.Audit(T, "unlock", "SAFETY_LOCKOUT", "ACTIVE", null, "the disk is back", pid, user, "h");
    }

    @Test
    void a_lockout_the_monitor_said_is_not_said_again_and_an_unlock_from_another_shell_names_who_and_why() {
        SafetyGate gate = gate();
        assertThat(gate.mayThink()).isTrue();
        state.set(new SafetyStatus(SafetyState.SAFETY_LOCKOUT, Optional.empty(), "safety lockout: …", T));
        assertThat(gate.mayThink()).isFalse();
        assertThat(sink.events).as("the monitor's own line said it").isEmpty();

        state.set(new SafetyStatus(SafetyState.ACTIVE, Optional.empty(), "the disk is back", T));
        audit.set(Optional.of(unlock(ProcessHandle.current().pid() + 1, "ann")));
        assertThat(gate.mayThink()).isTrue();

        assertThat(sink.of(AgentEvent.Info.class)).extracting(AgentEvent.Info::text)
                .containsExactly("unlocked by ann from another shell: the disk is back; thinking resumes");
    }

    @Test
    void a_halt_and_a_stop_found_at_the_start_are_said() {
        state.set(new SafetyStatus(SafetyState.SAFETY_LOCKOUT, Optional.empty(), "from yesterday", T));
        SafetyGate gate = gate();
        assertThat(gate.mayThink()).isFalse();
        state.set(new SafetyStatus(SafetyState.STOPPED, Optional.of(StopReason.HALT), "lunch", T));
        assertThat(gate.mayThink()).isFalse();

        assertThat(sink.of(AgentEvent.Problem.class)).extracting(AgentEvent.Problem::text)
                .satisfiesExactly(l -> assertThat(l).startsWith("SAFETY_LOCKOUT since ").contains("from yesterday"),
                        l -> assertThat(l).startsWith("STOPPED(halt) since ").contains("lunch"));
    }

    @Test
    void an_unlock_in_this_process_said_so_itself() {
        SafetyGate gate = gate();
        state.set(new SafetyStatus(SafetyState.STOPPED, Optional.of(StopReason.HALT), "", T));
        gate.mayThink();
        state.set(ACTIVE);
        audit.set(Optional.of(unlock(ProcessHandle.current().pid(), "ann")));
        gate.mayThink();

        assertThat(sink.of(AgentEvent.Info.class)).as("/unlock answered in the REPL").isEmpty();
    }
}
