package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 23's scenario suite through a real headless agent ({@code agent run --hz 10 --exit-on-lockout}, default
 * config, a scripted model on a real socket, time moving with a fake clock): every pathological scenario is stopped at
 * its threshold, visible in {@code agent status}, the audit and the alert command, with no request after the stop;
 * every healthy one ({@link SelfControlHealthyEndToEndTest}) runs to its end with no alert, pause or stop. {@code
 * scripts/bench self-control} prints the same runs as a table.
 */
@Timeout(120)
class SelfControlEndToEndTest {
    /** What the reflex may still do on a run with recent progress: tune the temperature, ask the meta question. */
    static final Set<String> WEAK = Set.of("LLM reflex tuning", "Meta-analysis");

    @TempDir Path dir;

    static List<SelfControlScenario> pathological() {
        List<SelfControlScenario> all = new java.util.ArrayList<>(Pathological.all());
        all.addAll(Loops.all());
        return all;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pathological")
    void is_stopped_at_its_threshold_and_every_stop_is_seen(SelfControlScenario s) throws Exception {
        SelfControlRun.Outcome o = SelfControlRun.run(s, dir);
        String why = s.threshold() + "; " + o;

        assertThat(o.stopCall()).as("stopped at call " + s.stopAt() + ": " + why).isEqualTo(s.stopAt());
        assertThat(o.state()).as(why).isEqualTo(s.stopState());
        assertThat(o.alertCall()).as("first alert: " + why).isEqualTo(s.alertAt());
        assertThat(o.calls()).as("no request after the stop: " + why).isEqualTo(o.stopCall());
        assertThat(o.afterStop()).isZero();
        assertThat(o.statusExit()).as("agent status while not ACTIVE").isEqualTo(ExitCodes.STOPPED);
        assertThat(o.runExit()).as("--exit-on-lockout exits 7, and waits a rest out")
                .isEqualTo(s.stopState().equals("RESTING") ? ExitCodes.OK : ExitCodes.STOPPED);
        assertThat(o.audit()).as("the stop is audited").hasSize(1).allMatch(a -> a.endsWith(" " + s.stopState()));
        assertThat(o.alertsHeard()).as("the alert command heard of it").hasSize(1);
    }
}
