package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.AgentSection;
import dev.hmpagent.config.FilesSection;
import dev.hmpagent.config.SandboxSection;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.Bwrap;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which shell policy the wiring uses, through a real cycle headless (nobody to answer): with {@code sandbox.mode =
 * "off"} the stricter fallback (paths stay in the roots, the default allow list's git entries dropped); with the
 * sandbox, today's policy. The commands are harmless: {@code cat} of files in a temp dir, {@code git status}.
 */
class FallbackPolicyCycleTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-27T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    final Semaphore arrived = new Semaphore(0);
    Path workspace;
    Store store;
    Wiring.Tools tools;
    Cycle cycle;

    @BeforeEach
    void layout() throws Exception {
        workspace = Files.createDirectories(dir.resolve("workspace"));
        Files.writeString(workspace.resolve("inside.txt"), "inside text\n");
        Files.createDirectories(dir.resolve("outside"));
        Files.writeString(dir.resolve("outside/x"), "outside secret\n");
    }

    void start(SandboxSection.Mode mode) {
        Path db = dir.resolve("agent.db");
        store = Store.open(db, clock);
        AgentConfig d = AgentConfig.defaults();
        // the default policy (allow: ls, cat, …, git status, git log, git diff), one root beside the database
        AgentConfig config = new AgentConfig(new AgentSection(db, "tester"), d.llm(), d.cycle(), d.context(), d.run(),
                d.policy(), new FilesSection(List.of(workspace), d.files().maxReadBytes(), d.files().maxWriteBytes()),
                d.shell(), d.cleanup()).withSandbox(new SandboxSection(mode, false, 1 << 20, 64));
        tools = Wiring.tools(config, Approver.NOBODY, List.of(),
                Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"), "HOME", dir.toString()), clock,
                FakeLlmClient::new);
        tools.completions().onArrival(arrived::release);
        cycle = Wiring.cycle(config, store, llm, sink, clock, TestWiring.time(clock), tools);
    }

    @AfterEach
    void close() {
        if (tools != null) tools.processes().stopAll("test over");
        if (store != null) store.close();
    }

    static String shells(String... commands) {
        StringBuilder out = new StringBuilder("\n# Commands:\n[");
        for (int i = 0; i < commands.length; i++) {
            out.append(i == 0 ? "" : ", ").append("{\"cmd_id\": \"s").append(i).append("\", \"type\": \"shell\",")
                    .append(" \"args\": {\"command\": \"").append(commands[i]).append("\"}}");
        }
        return out.append("]").toString();
    }

    ProcessRow row(String cmdId) {
        return new ProcessLogDao(store).byTick(1).stream().filter(r -> r.cmdId().equals(cmdId)).findFirst()
                .orElseThrow();
    }

    @Test
    void with_the_sandbox_off_the_fallback_refuses_paths_outside_the_roots_and_git_but_runs_the_harmless()
            throws Exception {
        start(SandboxSection.Mode.OFF);
        assertThat(tools.confinement().sandboxed()).isFalse();
        assertThat(tools.shell().unconfined()).isTrue();
        new NotesDao(store).add("look around", "user", 0, null);
        llm.reply("Let me look." + shells("cat ../outside/x", "git status", "cat inside.txt")).reply("Done.");

        cycle.tick();
        assertThat(arrived.tryAcquire(30, TimeUnit.SECONDS)).as("cat inside.txt finished").isTrue();
        cycle.tick();

        ProcessRow outside = row("s0");
        assertThat(outside.status()).isEqualTo("error");
        assertThat(outside.result()).contains("EPERM").contains("outside the file roots").doesNotContain("outside secret");
        ProcessRow git = row("s1");
        assertThat(git.status()).isEqualTo("error");
        assertThat(git.result()).contains("EPERM").contains("git can run other programs").contains("nobody can answer");
        ProcessRow inside = row("s2");
        assertThat(inside.status()).isEqualTo("ok");
        assertThat(inside.result()).contains("inside text");
    }

    @Test
    void with_the_sandbox_git_status_is_allowed_again() throws Exception {
        Bwrap.required();
        start(SandboxSection.Mode.AUTO);
        assertThat(tools.confinement().sandboxed()).isTrue();
        assertThat(tools.shell().unconfined()).isFalse();
        new NotesDao(store).add("status?", "user", 0, null);
        llm.reply("Let me look." + shells("git status")).reply("Done.");

        cycle.tick();
        assertThat(arrived.tryAcquire(30, TimeUnit.SECONDS)).as("git status ran").isTrue();
        cycle.tick();

        ProcessRow git = row("s0");
        // the workspace is no repository: git itself answers (exit 128), the policy did not refuse it
        assertThat(git.result()).doesNotContain("EPERM").doesNotContain("denied").contains("not a git repository");
    }
}
