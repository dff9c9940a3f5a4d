package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.ExternalCommand;
import dev.hmpagent.config.McpServerEntry;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.testing.FakeMcpServer;
import dev.hmpagent.testing.McpReferenceServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What of a server's tool list the LLM is shown, against a small node server of the test's own ({@link
 * FakeMcpServer}): a tool named with a word of our safety is left out and the person told once; a list that changes
 * during a task is shown from the next task on.
 */
@Timeout(60)
class McpToolListTest {
    @TempDir Path dir;
    final List<AgentEvent> events = new CopyOnWriteArrayList<>();
    /** Counted down when the person is told a tool list changed. */
    final CountDownLatch changed = new CountDownLatch(1);
    McpServers servers;

    @BeforeEach
    void start() throws Exception {
        String node = McpReferenceServers.node();
        servers = new McpServers(List.of(new McpServerEntry("fake", node, List.of(FakeMcpServer.script(dir).toString()),
                Map.of(), "", Map.of(), Duration.ofSeconds(20))), name -> null);
        servers.startInBackground(e -> {
            events.add(e);
            if (e instanceof AgentEvent.Info i && i.text().contains("tools changed")) changed.countDown();
        });
        assertThat(servers.awaitSettled(Duration.ofSeconds(30))).isTrue();
        assertThat(servers.states()).containsEntry("fake", McpServers.State.READY);
    }

    @AfterEach
    void stop() {
        servers.close();
    }

    @Test
    void a_tool_named_with_a_word_of_our_safety_is_left_out_and_the_person_told_once_but_block_is_offered() {
        String catalog = servers.catalogLines();

        assertThat(catalog).contains("- mcp.fake.create_block() — the create_block tool\n")
                .contains("- mcp.fake.echo()").doesNotContain("unlock_door");
        assertThat(servers.shownTools()).extracting(McpTool::name).containsExactly("echo", "create_block", "add_tool");
        assertThat(servers.describe()).contains("\n  mcp.fake.unlock_door() — the unlock_door tool  [not offered to"
                + " the LLM: the word \"unlock\" in its name is reserved for the agent's own safety controls]\n");
        servers.newTask();
        servers.catalogLines();
        assertThat(events).filteredOn(e -> e instanceof AgentEvent.Info).extracting(e -> ((AgentEvent.Info) e).text())
                .filteredOn(t -> t.contains("unlock_door")).containsExactly("MCP server fake: its tool unlock_door is not offered to the LLM: the word \"unlock\""
                        + " in its name is reserved for the agent's own safety controls; the server's other tools are");
    }

    @Test
    void a_tool_list_that_changes_during_a_task_is_shown_from_the_next_task_on() throws Exception {
        assertThat(servers.catalogLines()).doesNotContain("mcp.fake.extra");

        assertThat(call("add_tool").result()).isEqualTo("added extra");
        assertThat(changed.await(20, TimeUnit.SECONDS)).as("the person is told").isTrue();
        assertThat(events).filteredOn(e -> e instanceof AgentEvent.Info).extracting(e -> ((AgentEvent.Info) e).text())
                .contains("MCP server fake: its tools changed (5 tools); the LLM is shown them from the next task on");
        assertThat(servers.tools("fake")).extracting(McpTool::name).contains("extra");

        assertThat(servers.catalogLines()).as("mid-task: the prompt's prefix holds").doesNotContain("mcp.fake.extra");
        assertThat(servers.shownTools()).extracting(McpTool::name).doesNotContain("extra");
        assertThat(call("extra").result()).as("callable at once, though not yet shown").isEqualTo("extra ran");

        servers.newTask();

        assertThat(servers.catalogLines()).contains("- mcp.fake.extra() — the extra tool\n");
        assertThat(servers.shownTools()).extracting(McpTool::name).contains("extra");
    }

    private CommandOutcome call(String tool) throws Exception {
        ExternalCommand command = (ExternalCommand) servers.find("mcp.fake." + tool).orElseThrow();
        CompletableFuture<CommandOutcome> done = new CompletableFuture<>();
        ObjectNode args = new ObjectMapper().createObjectNode();
        command.start(new Args("mcp.fake." + tool, "{}", args), null, 1, done::complete).ifPresent(done::complete);
        return done.get(20, TimeUnit.SECONDS);
    }
}
