package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hmpagent.a2a.ChildAgents;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import dev.hmpagent.text.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agent status --tree}: the agent and the children it spawned, each child's own file read for its state, their
 * children under them, indented; and {@code agent spawn}'s refusals, each one line.
 */
class StatusTreeTest {
    @TempDir Path dir;
    Path db;

    @BeforeEach
    void family() throws Exception {
        db = dir.resolve("agent.db");
        try (Store parent = Store.open(db, Clock.systemUTC())) {
            parent.tables().peers().putChild("helper", "http://127.0.0.1:7001/");
            parent.tables().peers().putChild("late", "http://127.0.0.1:7002/");
        }
        Path helperDb = ChildAgents.db(db, "helper");
        Files.createDirectories(helperDb.getParent());
        try (Store helper = Store.open(helperDb, Clock.systemUTC())) {
            new SafetyControl(helper).halt("the parent was halted", Requester.thisProcess());
            helper.tables().peers().putChild("sub", "http://127.0.0.1:7003/");
        }
        Path subDb = ChildAgents.db(helperDb, "sub");
        Files.createDirectories(subDb.getParent());
        Store.open(subDb, Clock.systemUTC()).close();
    }

    @Test
    void the_tree_shows_each_child_under_its_parent_with_its_state() {
        CliRun run = CliRun.agent("status", "--tree", "--db", db.toString());

        List<String> lines = run.out().lines().toList();
        assertThat(lines.subList(lines.size() - 4, lines.size())).containsExactly(
                "agent.db: ACTIVE, not running",
                "  helper: STOPPED(halt), not running http://127.0.0.1:7001/",
                "    sub: ACTIVE, not running http://127.0.0.1:7003/",
                "  late: no file yet, not running http://127.0.0.1:7002/");
        assertThat(CliRun.agent("status", "--db", db.toString()).out()).doesNotContain("helper");
    }

    @Test
    void the_json_tree_nests_the_children() throws Exception {
        JsonNode o = Json.mapper().readTree(CliRun.agent("status", "--tree", "--json", "--db", db.toString()).out());
        JsonNode helper = o.get("children").get(0);
        assertThat(helper.get("name").asText()).isEqualTo("helper");
        assertThat(helper.get("safety").asText()).isEqualTo("STOPPED(halt)");
        assertThat(helper.get("pid").isNull()).isTrue();
        assertThat(helper.get("children").get(0).get("name").asText()).isEqualTo("sub");
        assertThat(o.get("children").get(1).get("safety").asText()).isEqualTo("no file yet");
    }

    @Test
    void spawn_refuses_a_bad_name_and_a_file_no_agent_runs_on_in_one_line() {
        CliRun bad = CliRun.agent(Map.of(), cl -> { }, "spawn", "Bad/Name", "--db", db.toString());
        assertThat(bad.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).startsWith("agent spawn: a child's name is 1 to 32 of a-z").hasLineCount(1);

        CliRun none = CliRun.agent("spawn", "helper2", "--db", db.toString());
        assertThat(none.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(none.err()).isEqualTo("agent spawn: no agent runs on agent.db: a child lives and dies with its parent;"
                + " start it (agent, or agent run) and spawn again\n");
    }
}
