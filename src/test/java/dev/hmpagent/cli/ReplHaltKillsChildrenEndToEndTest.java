package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.AgentJvm;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The same as {@link HaltKillsChildrenEndToEndTest} from a person at the REPL: {@code /halt} kills the running
 * {@code sleep} at once (EHALT, the process gone) while the REPL goes on reading. Only this class's own test runs
 * here: the inherited {@code agent halt} test is overridden without {@code @Test} (it runs in the parent class).
 */
class ReplHaltKillsChildrenEndToEndTest extends HaltKillsChildrenEndToEndTest {
    @Override
    void agent_halt_kills_a_running_command_at_once_and_the_agent_keeps_running() {
        // the parent class runs it
    }

    @Test
    void slash_halt_in_the_repl_kills_a_running_command_at_once_and_the_repl_goes_on() throws Exception {
        llm.streamed("Waiting a while.\n# Commands:\n[{\"cmd_id\": \"s\", \"type\": \"shell\", \"args\": {\"command\": \""
                + SLEEP + "\", \"timeout_s\": 120}}]\n# End commands", 10, 5);
        for (int i = 0; i < 10; i++) llm.streamed("Still waiting, round " + i + ".", 10, 5);
        run = new AgentJvm(config, db, llm.baseUrl(), dir, dir).start();   // the REPL, its input a pipe
        StringBuffer shown = new StringBuffer();
        Thread drain = new Thread(() -> {
            try (var in = run.getInputStream()) {
                byte[] b = new byte[8192];
                for (int n; (n = in.read(b)) > 0; ) shown.append(new String(b, 0, n, java.nio.charset.StandardCharsets.UTF_8));
            } catch (IOException e) {
                // the agent ended
            }
        });
        drain.setDaemon(true);
        drain.start();
        var input = new java.io.PrintStream(run.getOutputStream(), true, java.nio.charset.StandardCharsets.UTF_8);
        input.println("start the long job");
        assertThat(await("SELECT status FROM process_log WHERE cmd_id = 's'", "running")).isEqualTo("running");
        assertThat(awaitSleepers(true)).as("the command runs").isPositive();

        input.println("/halt enough");

        String row = await("SELECT status || ' ' || coalesce(error_code, '') FROM process_log WHERE cmd_id = 's'",
                "error EHALT");
        assertThat(row).isEqualTo("error EHALT");
        assertThat(run.isAlive()).as("the REPL still reads: the kill was the halt's, not the exit's").isTrue();
        assertThat(awaitSleepers(false)).as("its process is gone").isZero();
        input.println("/status");
        input.close();
        assertThat(run.waitFor(60, TimeUnit.SECONDS)).isTrue();
        drain.join(10_000);
        assertThat(shown.toString()).contains("STOPPED(halt)");
    }
}
