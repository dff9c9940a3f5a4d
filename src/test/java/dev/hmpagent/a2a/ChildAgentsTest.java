package dev.hmpagent.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.LlmSection;
import dev.hmpagent.process.AgentChildren;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyState;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.safety.StopReason;
import dev.hmpagent.store.HaltFlag;
import dev.hmpagent.store.PeersDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spawning a child: its folder beside the parent's file, its environment (its own file, A2A port, roots and model,
 * the parent's LLM otherwise, the basics of the parent's environment and nothing else), its peer row; a halt of the
 * parent halts each child in its own file. The child's process is a small stand-in here (the real {@code agent run}
 * is {@code SpawnEndToEndTest}'s).
 */
class ChildAgentsTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    final List<AgentChildren.Spec> specs = new CopyOnWriteArrayList<>();
    final LlmSection llm = new LlmSection("http://llm.test/v1", "parent-model", "sk-parent-key-123", 0.7, 0, 0, 512,
            false, Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(60),
            Duration.ofSeconds(60));
    AgentChildren supervisor;
    ChildAgents children;
    Store parent;
    Path db;

    @BeforeEach
    void open() {
        db = dir.resolve("agent.db");
        parent = Store.open(db, clock);
        supervisor = new AgentChildren(2, (delay, task) -> { }, spec -> {
            specs.add(spec);
            return new ProcessBuilder("sleep", "30").start();
        }, () -> 0, line -> { });
        children = new ChildAgents(db, llm, Map.of("PATH", "/usr/bin:/bin", "HOME", "/home/p", "LC_ALL", "C.UTF-8",
                "GITHUB_TOKEN", "ghp_secret", "EDITOR", "vi"), Map.of("AGENT_SANDBOX_MODE", "required"), supervisor);
    }

    @AfterEach
    void close() {
        supervisor.stopAll(Duration.ofMillis(100));
        parent.close();
    }

    ChildAgents.Spawned spawn(String name, Optional<String> model, Optional<String> instructions) {
        return children.spawn(new ChildAgents.Request(name, model, OptionalDouble.empty(), instructions),
                parent.tables().peers());
    }

    @Test
    void a_child_gets_its_folder_its_own_settings_and_a_peer_row() throws Exception {
        ChildAgents.Spawned s = spawn("helper", Optional.empty(), Optional.of("Collect the logs."));
        Path folder = dir.resolve("children").resolve("helper");

        assertThat(s.started()).isTrue();
        AgentChildren.Spec spec = specs.get(0);
        Map<String, String> env = spec.env();
        String listen = env.get("AGENT_A2A_LISTEN");
        assertThat(listen).matches("127\\.0\\.0\\.1:\\d+");
        assertThat(s.line()).isEqualTo("child helper started: http://" + listen + "/ (peer helper, folder " + folder + ")");
        assertThat(env).containsEntry("AGENT_DB", folder.resolve("agent.db").toString())
                .containsEntry("AGENT_AGENT_NAME", "helper")
                .containsEntry(ChildAgents.PARENT_PID, Long.toString(ProcessHandle.current().pid()))
                .containsEntry("AGENT_FILES_ROOTS", folder.resolve("work").toString())
                .containsEntry("AGENT_LLM_PROVIDER", "openai")
                .containsEntry("AGENT_LLM_BASE_URL", "http://llm.test/v1")
                .containsEntry("AGENT_LLM_MODEL", "parent-model")
                .containsEntry("AGENT_CYCLE_AUTONOMOUS", "true")
                .containsEntry("AGENT_SANDBOX_MODE", "required")
                .containsEntry("PATH", "/usr/bin:/bin").containsEntry("HOME", "/home/p").containsEntry("LC_ALL", "C.UTF-8")
                .doesNotContainKeys("GITHUB_TOKEN", "EDITOR", "AGENT_RUN_HZ");
        assertThat(spec.dir()).isEqualTo(folder);
        assertThat(spec.log()).isEqualTo(folder.resolve("child.log"));
        assertThat(spec.argv()).endsWith("dev.hmpagent.cli.Main", "run");
        assertThat(folder.resolve("work")).isDirectory();
        assertThat(Files.readString(folder.resolve("AGENTS.md"))).isEqualTo("Collect the logs.");

        assertThat(parent.tables().peers().children()).containsExactly(new PeersDao.Child("helper", "http://" + listen + "/"));
        PeersDao.Peer row = parent.tables().peers().find("helper").orElseThrow();
        assertThat(row.tags()).isEqualTo("child");
        assertThat(row.status()).isEqualTo("online");
        Path wal = db.resolveSibling("agent.db-wal");
        String file = new String(Files.readAllBytes(db), java.nio.charset.StandardCharsets.ISO_8859_1)
                + (Files.exists(wal) ? new String(Files.readAllBytes(wal), java.nio.charset.StandardCharsets.ISO_8859_1) : "");
        assertThat(file).as("the row is in the file").contains("127.0.0.1");
        assertThat(file).as("no key in the file").doesNotContain("sk-parent-key-123");
    }

    @Test
    void a_model_given_replaces_the_parents_and_without_instructions_the_child_waits_for_messages() {
        spawn("critic", Optional.of("llama3.2"), Optional.empty());
        assertThat(specs.get(0).env()).containsEntry("AGENT_LLM_MODEL", "llama3.2")
                .containsEntry("AGENT_CYCLE_AUTONOMOUS", "false");
        assertThat(dir.resolve("children/critic/AGENTS.md")).doesNotExist();
    }

    @Test
    void a_bad_name_a_taken_name_and_one_too_many_are_refused_in_one_line() {
        assertThat(spawn("../up", Optional.empty(), Optional.empty()).line())
                .startsWith("a child's name is 1 to 32 of a-z, 0-9, '-' and '_'");
        parent.tables().peers().add("postman", Map.of("name", "postman"));
        assertThat(spawn("postman", Optional.empty(), Optional.empty()).line())
                .isEqualTo("you already know a peer called postman that is no child of yours; choose another name");
        assertThat(spawn("one", Optional.empty(), Optional.empty()).started()).isTrue();
        assertThat(spawn("two", Optional.empty(), Optional.empty()).started()).isTrue();
        ChildAgents.Spawned third = spawn("three", Optional.empty(), Optional.empty());
        assertThat(third.started()).isFalse();
        assertThat(third.line()).contains("a2a.max_children allows (2)");
        assertThat(specs).hasSize(2);
        assertThat(parent.tables().peers().children()).extracting(PeersDao.Child::name).containsExactly("one", "two");
    }

    @Test
    void a_halt_of_the_parent_halts_each_child_in_its_file_or_by_its_flag() {
        spawn("made", Optional.empty(), Optional.empty());
        spawn("unmade", Optional.empty(), Optional.empty());
        Path madeDb = ChildAgents.db(db, "made");
        Store.open(madeDb, clock).close();   // the child made its file; "unmade" has not yet

        assertThat(children.haltAll("the parent was halted", clock)).isEqualTo(2);

        try (Store made = Store.openReadOnly(madeDb, clock)) {
            SafetyStatus status = new SafetyControl(made).current();
            assertThat(status.state()).isEqualTo(SafetyState.STOPPED);
            assertThat(status.reason()).contains(StopReason.HALT);
            assertThat(status.label()).isEqualTo("STOPPED(halt)");
        }
        HaltFlag flag = new HaltFlag(ChildAgents.db(db, "unmade"));
        assertThat(flag.raised()).isTrue();
        assertThat(flag.reason()).contains("the parent was halted");
    }

    @Test
    void the_control_channels_request_is_read_from_its_json() {
        String line = children.spawnRequested("{\"name\": \"helper\", \"model\": \"m2\", \"hz\": 0.5}",
                parent.tables().peers());
        assertThat(line).startsWith("child helper started: http://127.0.0.1:");
        assertThat(specs.get(0).env()).containsEntry("AGENT_LLM_MODEL", "m2").containsEntry("AGENT_RUN_HZ", "0.5");
        assertThat(children.spawnRequested("not json", parent.tables().peers()))
                .isEqualTo("agent spawn: the request is no JSON object: not json");
    }
}
