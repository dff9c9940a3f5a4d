package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The healthy half of issue 23's scenario suite through a real headless agent ({@code agent run --hz 10
 * --exit-on-lockout}, default config, a scripted model on a real socket, time moving with a fake clock): every healthy
 * scenario runs to its end with no alert, pause or stop, and a wait that polls an unchanged result rests on the way and
 * goes on. The pathological half is {@link SelfControlEndToEndTest}: two classes, so that the suite's two JVMs run the
 * halves at once.
 */
@Timeout(120)
class SelfControlHealthyEndToEndTest {
    @TempDir Path dir;

    static List<SelfControlScenario> healthy() {
        List<SelfControlScenario> all = new java.util.ArrayList<>(Healthy.all());
        all.addAll(Finishes.all());
        return all;
    }

    static List<SelfControlScenario> waits() {
        return Finishes.waits();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("healthy")
    void runs_to_its_end_with_no_alert_pause_or_stop(SelfControlScenario s) throws Exception {
        SelfControlRun.Outcome o = SelfControlRun.run(s, dir);
        String why = s.threshold() + "; " + o;

        assertThat(o.calls()).as("the whole task: " + why).isEqualTo(s.stopAt());
        assertThat(o.state()).as(why).isEqualTo("ACTIVE");
        assertThat(o.alertCall()).as("no alert: " + why).isZero();
        assertThat(o.stopCall()).as("no stop: " + why).isZero();
        assertThat(o.audit()).as(why).isEmpty();
        assertThat(o.alertsHeard()).isEmpty();
        assertThat(o.statusExit()).isEqualTo(ExitCodes.OK);
        assertThat(o.runExit()).as(o.runOut()).isEqualTo(ExitCodes.OK);
        assertThat(o.firings()).as("only the weak ways out, never a rest or a switch: " + why)
                .allMatch(f -> SelfControlEndToEndTest.WEAK.contains(f.substring(f.indexOf(' ') + 1)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("waits")
    void a_wait_that_polls_an_unchanged_result_runs_to_its_end_resting_on_the_way(SelfControlScenario s) throws Exception {
        SelfControlRun.Outcome o = SelfControlRun.run(s, dir);
        String why = s.threshold() + "; " + o;

        assertThat(o.calls()).as("the whole task: " + why).isEqualTo(s.stopAt());
        assertThat(o.state()).as(why).isEqualTo("ACTIVE");
        assertThat(o.audit()).as("rests that ended by themselves, nothing else: " + why).isNotEmpty()
                .allMatch(a -> a.equals("rest RESTING") || a.equals("rest_end ACTIVE"));
        assertThat(o.statusExit()).isEqualTo(ExitCodes.OK);
        assertThat(o.runExit()).as(o.runOut()).isEqualTo(ExitCodes.OK);
    }
}
