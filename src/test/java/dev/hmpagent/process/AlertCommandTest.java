package dev.hmpagent.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class AlertCommandTest {
    @TempDir Path dir;

    AlertCommand.Result await(CompletableFuture<AlertCommand.Result> future) throws Exception {
        return future.get(20, TimeUnit.SECONDS);
    }

    @Test
    void the_reason_reaches_the_command_in_its_environment_and_as_its_first_argument() throws Exception {
        Path env = dir.resolve("env.txt");
        Path arg = dir.resolve("arg.txt");
        AlertCommand alert = new AlertCommand("printf '%s' \"$HMP_AGENT_ALERT\" > '" + env + "'; printf '%s' \"$1\" > '"
                + arg + "'");

        AlertCommand.Result result = await(alert.run("SAFETY_LOCKOUT: repeated a failed action 5 times"));

        assertThat(result.ok()).isTrue();
        assertThat(result.exitCode()).isZero();
        assertThat(Files.readString(env)).isEqualTo("SAFETY_LOCKOUT: repeated a failed action 5 times");
        assertThat(Files.readString(arg)).isEqualTo("SAFETY_LOCKOUT: repeated a failed action 5 times");
    }

    @Test
    void the_command_gets_only_the_environment_it_is_given_and_the_reason() throws Exception {
        Path out = dir.resolve("env.txt");
        AlertCommand alert = new AlertCommand("env > '" + out + "'", java.util.Map.of("PATH", "/usr/bin:/bin",
                "HOME", dir.toString()));

        assertThat(await(alert.run("locked")).ok()).isTrue();

        assertThat(Files.readAllLines(out)).filteredOn(l -> !l.startsWith("PWD=") && !l.startsWith("SHLVL=")
                && !l.startsWith("_=")).containsExactlyInAnyOrder("PATH=/usr/bin:/bin", "HOME=" + dir,
                "HMP_AGENT_ALERT=locked");
    }

    @Test
    void a_reason_is_data_never_shell_code() throws Exception {
        Path out = dir.resolve("out.txt");
        Path planted = dir.resolve("planted");
        String reason = "locked $(touch " + planted + ") `touch " + planted + "`; touch " + planted;

        await(new AlertCommand("printf '%s' \"$HMP_AGENT_ALERT\" > '" + out + "'").run(reason));

        assertThat(Files.readString(out)).isEqualTo(reason);
        assertThat(planted).doesNotExist();
    }

    @Test
    void the_exit_code_and_the_tail_of_the_output_come_back() throws Exception {
        AlertCommand.Result result = await(new AlertCommand("echo to-out; echo to-err >&2; exit 3").run("r"));

        assertThat(result.ok()).isFalse();
        assertThat(result.failure()).isEmpty();
        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.output()).contains("to-out").contains("to-err");
    }

    @Test
    void output_is_drained_but_only_its_tail_is_kept() throws Exception {
        AlertCommand.Result result = await(new AlertCommand("head -c 300000 /dev/zero | tr '\\0' x; echo END")
                .run("r"));

        assertThat(result.exitCode()).isZero();
        assertThat(result.output()).hasSizeLessThanOrEqualTo(AlertCommand.OUTPUT_CAP).endsWith("END\n");
    }

    @Test
    void stdin_is_closed() throws Exception {
        Path out = dir.resolve("stdin.txt");
        AlertCommand.Result result = await(new AlertCommand("cat > '" + out + "'; echo read-all").run("r"));

        assertThat(result.ok()).isTrue();
        assertThat(Files.readString(out)).isEmpty();
    }

    @Test
    void the_caller_is_never_blocked() throws Exception {
        long start = System.nanoTime();
        CompletableFuture<AlertCommand.Result> future = new AlertCommand("sleep 2").run("r");
        long tookMs = (System.nanoTime() - start) / 1_000_000;

        assertThat(tookMs).isLessThan(1000);
        assertThat(future).isNotDone();
        assertThat(await(future).ok()).isTrue();
    }

    @Test
    void a_command_over_its_time_is_killed_with_its_children() throws Exception {
        Path pidFile = dir.resolve("child.pid");
        AlertCommand alert = new AlertCommand("sleep 60 & echo $! > '" + pidFile + "'; wait",
                Duration.ofMillis(500), r -> new Thread(r).start());

        long start = System.nanoTime();
        AlertCommand.Result result = await(alert.run("r"));

        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(10_000);
        assertThat(result.ok()).isFalse();
        assertThat(result.failure()).isEqualTo("timed out after 500 ms: killed");
        long child = Long.parseLong(Files.readString(pidFile).strip());
        Thread.sleep(200);
        assertThat(running(child)).as("the child is killed").isFalse();
    }

    /** Alive and not a zombie (in a container nobody may reap the killed child, so isAlive() alone says true). */
    static boolean running(long pid) throws Exception {
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) return false;
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (!Files.exists(stat)) return true;
        String text = Files.readString(stat);
        return text.charAt(text.lastIndexOf(')') + 2) != 'Z';
    }

    @Test
    void the_default_timeout_is_ten_seconds() {
        assertThat(AlertCommand.DEFAULT_TIMEOUT).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void nothing_configured_runs_nothing_and_says_so() throws Exception {
        AlertCommand none = new AlertCommand("  ");

        assertThat(none.configured()).isFalse();
        AlertCommand.Result result = await(none.run("r"));
        assertThat(result.failure()).isEqualTo("no safety.alert_command is set");
    }

    @Test
    void a_command_that_cannot_start_or_a_refusing_executor_never_throws() throws Exception {
        AlertCommand refusing = new AlertCommand("true", Duration.ofSeconds(1), r -> {
            throw new java.util.concurrent.RejectedExecutionException("full");
        });
        assertThat(await(refusing.run("r")).failure()).contains("could not be started").contains("full");

        AlertCommand.Result missing = await(new AlertCommand("/no/such/program").run(null));
        assertThat(missing.exitCode()).isEqualTo(127);
        assertThat(missing.output()).contains("/no/such/program");
    }

    @Test
    void a_nul_in_the_reason_does_not_stop_the_alert() throws Exception {
        Path out = dir.resolve("nul.txt");
        await(new AlertCommand("printf '%s' \"$1\" > '" + out + "'").run("a\0b"));

        assertThat(Files.readString(out)).isEqualTo("a b");
    }

    @Test
    void as_the_monitors_alerter_it_runs_the_configured_command_and_nothing_when_none_is_set() throws Exception {
        Path out = dir.resolve("alerter.txt");
        java.util.List<Runnable> started = new java.util.ArrayList<>();
        AlertCommand configured = new AlertCommand("printf '%s' \"$1\" > '" + out + "'", Duration.ofSeconds(10),
                started::add);
        dev.hmpagent.safety.Alerter alerter = configured::alert;

        alerter.alert("SAFETY_LOCKOUT: looped");
        assertThat(started).hasSize(1);
        started.get(0).run();
        assertThat(Files.readString(out)).isEqualTo("SAFETY_LOCKOUT: looped");

        java.util.List<Runnable> none = new java.util.ArrayList<>();
        new AlertCommand(" ", Duration.ofSeconds(10), none::add).alert("SAFETY_LOCKOUT: looped");
        assertThat(none).isEmpty();
    }
}
