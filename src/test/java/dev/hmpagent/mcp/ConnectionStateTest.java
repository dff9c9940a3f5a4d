package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.McpServerEntry;
import dev.hmpagent.process.Confinement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A server's connection state is one value swapped whole: each change gives the next value with its state, reason,
 * failures and tools together, so a reader holds one moment of the server, never the state of one and the reason of
 * another.
 */
class ConnectionStateTest {
    /** No tool list is refreshed in these tests. */
    private static final Coalescer.Scheduler NEVER = new Coalescer.Scheduler() {
        @Override
        public long nanos() {
            return 0;
        }

        @Override
        public void after(long delayNanos, Runnable task) { }
    };

    @Test
    void a_failure_sets_the_state_its_reason_and_the_count_together_and_a_second_one_changes_nothing() {
        ConnectionState failed = ConnectionState.starting().nextStart().failed("exited");

        assertThat(List.of(failed.state(), failed.reason(), failed.failures(), failed.generation()))
                .containsExactly(McpServers.State.FAILED, "exited", 1, 1);
        assertThat(failed.failed("closed its stdout")).isSameAs(failed);
        assertThat(failed.stopped().failed("exited").state()).isEqualTo(McpServers.State.STOPPED);
    }

    @Test
    void a_restart_keeps_why_it_failed_and_the_count_and_forgets_the_old_start() {
        ConnectionState failed = ConnectionState.starting().nextStart().junk("hello").endedInStart("exited")
                .failed("did not start");

        ConnectionState again = failed.restarting().nextStart();

        assertThat(List.of(again.state(), again.reason(), again.failures(), again.generation()))
                .containsExactly(McpServers.State.STARTING, "did not start", 1, 2);
        assertThat(List.of(again.endedInStart(), again.firstJunk())).containsExactly("", "");
        assertThat(again.session()).isSameAs(ConnectionState.Session.NONE);
        assertThat(again.settled()).isNotSameAs(failed.settled());
        assertThat(again.settled().getCount()).isEqualTo(1);
    }

    @Test
    void ready_clears_the_reason_and_the_failures_only_from_a_start() {
        ConnectionState again = ConnectionState.starting().failed("exited").restarting();

        ConnectionState ready = again.ready();

        assertThat(List.of(ready.state(), ready.reason(), ready.failures()))
                .containsExactly(McpServers.State.READY, "", 0);
        ConnectionState failed = ConnectionState.starting().failed("exited");
        assertThat(failed.ready()).isSameAs(failed);
    }

    @Test
    void only_the_first_stray_line_is_kept_and_it_is_told_once() {
        ConnectionState s = ConnectionState.starting().junk("first").junk("second");

        assertThat(s.firstJunk()).isEqualTo("first");
        assertThat(s.junkTold().toldJunk()).isTrue();
        assertThat(ConnectionState.starting().junkTold().toldJunk()).as("nothing to tell yet").isFalse();
    }

    @Test
    void what_a_failed_start_tells_is_read_from_the_whole_failed_state() {
        List<String> seen = new ArrayList<>();
        McpConnection[] holder = new McpConnection[1];
        ServerNews news = new ServerNews(problem -> {
            ConnectionState s = holder[0].status();
            seen.add(s.state() + "|" + s.failures() + "|" + s.reason());
        }, n -> { }, name -> seen.add("changed " + holder[0].status().state()), name -> { });
        holder[0] = new McpConnection(new McpServerEntry("ghost", "/nonexistent/mcp-server", List.of(), Map.of(), "",
                Map.of(), Duration.ofSeconds(5)), name -> null, news, NEVER, Confinement.none(), Map.of());

        holder[0].connect();

        assertThat(seen).containsExactly(
                "FAILED|1|did not start: /nonexistent/mcp-server is not an executable file", "changed FAILED");
        assertThat(holder[0].unavailable().result())
                .isEqualTo("mcp server ghost is unavailable: did not start: /nonexistent/mcp-server is not an"
                        + " executable file");
    }
}
