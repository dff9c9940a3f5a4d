package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.event.AgentEvent;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A stdio server that misbehaves costs the call it misbehaved in, never the connection: lines that are not JSON-RPC
 * are dropped (said once), a 50 MB message is refused with its size (the server goes on), and a server whose stdout
 * ends fails its call at once (EOFFLINE), said in one line, and is started again.
 */
@Timeout(120)
class McpMisbehavingServerTest {
    /** Calls get a long timeout_s: an answer that comes only after it would show as the wait the tests forbid. */
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** What "at once" means here: far below the timeout_s, well above a slow machine's round trip. */
    private static final Duration AT_ONCE = Duration.ofSeconds(15);

    @Test
    void lines_that_are_not_json_rpc_are_dropped_said_once_and_the_answers_after_them_arrive() throws Exception {
        try (MisbehavingServer bad = new MisbehavingServer(TIMEOUT, null, "--banner")) {
            assertThat(bad.servers.states()).containsEntry("bad", McpServers.State.READY);

            CommandOutcome first = bad.call("junk", "{\"text\": \"one\"}", AT_ONCE);
            CommandOutcome second = bad.call("junk", "{\"text\": \"two\"}", AT_ONCE);

            assertThat(first.result()).isEqualTo("junk: one");
            assertThat(second.result()).isEqualTo("junk: two");
            assertThat(bad.said(AgentEvent.Info.class)).filteredOn(l -> l.contains("not JSON-RPC")).containsExactly(
                    "MCP server bad wrote a line on its stdout that is not JSON-RPC: \"misbehaving-server 1.0 starting"
                            + " (a banner on stdout)\"; it was dropped, as any more will be (its answers still"
                            + " arrive); a server should write its logs to stderr");
            assertThat(bad.said(AgentEvent.Problem.class)).isEmpty();
        }
    }

    @Test
    void a_message_of_50_mb_is_refused_with_its_size_and_the_server_is_not_killed_for_it() throws Exception {
        try (MisbehavingServer bad = new MisbehavingServer(TIMEOUT, null)) {
            long pid = bad.servers.pid("bad").orElseThrow();

            CommandOutcome big = bad.call("big", "{\"mb\": 50}", Duration.ofSeconds(40));

            assertThat(big.code()).isEqualTo("EFBIG");
            assertThat(big.result()).startsWith("mcp.bad.big failed: a message of 50 MB from MCP server bad was"
                    + " refused (limit 16 MB); ask for less");
            assertThat(bad.call("echo", "{\"text\": \"still here\"}", AT_ONCE).result()).isEqualTo("echo: still here");
            assertThat(bad.servers.pid("bad")).as("the same process").hasValue(pid);
            assertThat(bad.servers.states()).containsEntry("bad", McpServers.State.READY);
            assertThat(bad.said(AgentEvent.Problem.class)).isEmpty();
        }
    }

    @Test
    void a_server_that_closes_its_stdout_fails_the_call_at_once_is_said_once_and_is_started_again()
            throws Exception {
        try (MisbehavingServer bad = new MisbehavingServer(TIMEOUT, null)) {
            long first = bad.servers.pid("bad").orElseThrow();

            CommandOutcome cut = bad.call("close_stdout", "{}", AT_ONCE);

            assertThat(cut.code()).isEqualTo("EOFFLINE");
            assertThat(cut.result()).isEqualTo("mcp server bad closed its stdout (it runs on, but can no longer"
                    + " answer) during the call");
            assertThat(bad.said(AgentEvent.Problem.class)).containsExactly("MCP server bad closed its stdout (it runs"
                    + " on, but can no longer answer); its tools (mcp.bad.*) are unavailable; restarting it with"
                    + " back-off");
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (bad.servers.states().get("bad") != McpServers.State.READY
                    || bad.servers.pid("bad").filter(p -> p != first).isEmpty()) {
                assertThat(System.nanoTime()).as("started again within 30 s").isLessThan(deadline);
                Thread.onSpinWait();
            }
            assertThat(ProcessHandle.of(first)).as("the old process was killed").isEmpty();
            assertThat(bad.call("echo", "{\"text\": \"again\"}", AT_ONCE).result()).isEqualTo("echo: again");
        }
    }

    @Test
    void a_server_that_dies_mid_call_fails_the_call_at_once_not_at_its_timeout() throws Exception {
        try (MisbehavingServer bad = new MisbehavingServer(TIMEOUT, null)) {
            CommandOutcome died = bad.call("die", "{}", AT_ONCE);

            assertThat(died.code()).isEqualTo("EOFFLINE");
            assertThat(died.result()).isEqualTo("mcp server bad exited during the call");
        }
    }

    @Test
    void a_call_that_is_never_answered_ends_at_its_timeout_in_our_words_not_a_java_exception() throws Exception {
        // before: the model read "java.util.concurrent.TimeoutException: Did not observe any item ... MonoDeferContextual"
        try (MisbehavingServer bad = new MisbehavingServer(Duration.ofSeconds(2), null)) {
            CommandOutcome hung = bad.call("hang", "{}", AT_ONCE);

            assertThat(hung.code()).isEqualTo("ETIMEDOUT");
            assertThat(hung.result()).contains("mcp server bad").contains("timeout_s")
                    .doesNotContain("Exception").doesNotContain("MonoDeferContextual").doesNotContain("java.");
            assertThat(bad.call("echo", "{\"text\": \"still there\"}", AT_ONCE).result())
                    .as("the connection outlives a timed-out call").contains("echo: still there");
        }
    }

    @Test
    void a_server_killed_by_the_exits_halt_is_stopped_not_failed_and_not_started_again() throws Exception {
        try (MisbehavingServer bad = new MisbehavingServer(TIMEOUT, null)) {
            long pid = bad.servers.pid("bad").orElseThrow();

            bad.servers.exiting();
            bad.servers.cancelAll("the agent exited");

            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (ProcessHandle.of(pid).isPresent() || bad.servers.states().get("bad") == McpServers.State.READY) {
                assertThat(System.nanoTime()).as("killed within 10 s").isLessThan(deadline);
                Thread.onSpinWait();
            }
            assertThat(bad.servers.states()).containsEntry("bad", McpServers.State.STOPPED);
            assertThat(bad.said(AgentEvent.Problem.class)).as("no \"was stopped by a halt … restarting it\"")
                    .isEmpty();
        }
    }
}
