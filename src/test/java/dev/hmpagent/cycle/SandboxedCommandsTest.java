package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.AgentSection;
import dev.hmpagent.config.PolicySection;
import dev.hmpagent.config.SandboxSection;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.Bwrap;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the model is told about the sandbox, and what happens to its commands in each mode, through the cycle. */
class SandboxedCommandsTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-26T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    final Semaphore arrived = new Semaphore(0);
    Store store;
    Wiring.Tools tools;
    Cycle cycle;

    void start(SandboxSection.Mode mode, String path) {
        Path db = dir.resolve("agent.db");
        store = Store.open(db, clock);
        AgentConfig d = AgentConfig.defaults();
        AgentConfig config = new AgentConfig(new AgentSection(db, "tester"), d.llm(), d.cycle(), d.context(), d.run(),
                new PolicySection(d.policy().shellDeny(), d.policy().shellAsk(), List.of("echo", "ps", "wc", "sleep")), d.files(),
                d.shell(), d.cleanup()).withSandbox(new SandboxSection(mode, false, 1 << 20, 64));
        tools = Wiring.tools(config, Approver.NOBODY, List.of(), Map.of("PATH", path, "HOME", dir.toString()), clock,
                FakeLlmClient::new);
        tools.completions().onArrival(arrived::release);
        cycle = Wiring.cycle(config, store, llm, sink, clock, TestWiring.time(clock), tools);
    }

    @AfterEach
    void close() {
        if (tools != null) tools.processes().stopAll("test over");
        if (store != null) store.close();
    }

    static String shell(String command) {
        return "\n# Commands:\n[{\"cmd_id\": \"s\", \"type\": \"shell\", \"args\": {\"command\": \"" + command + "\"}}]";
    }

    @Test
    void a_required_sandbox_that_is_missing_refuses_shell_as_eperm_saying_what_to_install() {
        start(SandboxSection.Mode.REQUIRED, "/nonexistent");
        new NotesDao(store).add("what is here?", "user", 0, null);
        llm.reply("Let me look." + shell("echo hi"));

        cycle.tick();

        ProcessRow row = new ProcessLogDao(store).byTick(1).get(0);
        assertThat(row.status()).isEqualTo("error");
        assertThat(row.result()).contains("EPERM").contains("sandbox.mode is required")
                .contains("apt-get install bubblewrap");
        assertThat(llm.systemPrompt(0)).contains("shell and script_run are refused here");
    }

    @Test
    void the_model_is_told_its_commands_are_sandboxed_and_see_only_their_own_processes() throws Exception {
        Bwrap.required();
        start(SandboxSection.Mode.AUTO, System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        new NotesDao(store).add("which processes are there?", "user", 0, null);
        llm.reply("Let me look." + shell("ps -e -o pid= | wc -l")).reply("Few.");

        cycle.tick();
        assertThat(arrived.tryAcquire(30, TimeUnit.SECONDS)).isTrue();
        cycle.tick();

        assertThat(llm.systemPrompt(0)).contains("run in a sandbox").contains("ps and kill in one command do not see"
                + " another's");
        ProcessRow row = new ProcessLogDao(store).byTick(1).get(0);
        assertThat(row.status()).isEqualTo("ok");
        int seen = Integer.parseInt(row.result().lines().filter(l -> l.strip().matches("\\d+")).findFirst()
                .orElseThrow().strip());
        assertThat(seen).as("only the sandbox's own processes").isLessThan(8);
    }

    @Test
    void process_list_gives_the_host_pid_a_person_can_use_and_says_so() throws Exception {
        Bwrap.required();
        start(SandboxSection.Mode.AUTO, System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        new NotesDao(store).add("wait a while", "user", 0, null);
        llm.reply("Waiting." + shell("sleep 60"))
                .reply("What runs?\n# Commands:\n[{\"cmd_id\": \"l\", \"type\": \"process_list\", \"args\": {}}]");

        cycle.tick();
        new NotesDao(store).add("what is running?", "user", 0, null);
        cycle.tick();

        ProcessRow list = new ProcessLogDao(store).byTick(2).stream().filter(r -> "l".equals(r.cmdId()))
                .findFirst().orElseThrow();
        assertThat(list.result()).contains("1 process running (pid: the host pid; it is the sandbox:")
                .contains("sleep 60");
        long pid = Long.parseLong(list.result().replaceAll("(?s).*\\(pid (\\d+),.*", "$1"));
        ProcessHandle onHost = ProcessHandle.of(pid).orElseThrow(() -> new AssertionError("no host process " + pid));
        assertThat(onHost.info().command().orElse(""))
                .as("the sandbox (or the shell that becomes it; for a root agent, the steps that drop to nobody first)")
                .containsAnyOf("bwrap", "sh", "unshare", "perl", "setpriv");
        assertThat(onHost.parent().map(ProcessHandle::pid)).contains(ProcessHandle.current().pid());
    }

    @Test
    void without_the_sandbox_the_model_is_told_so() {
        start(SandboxSection.Mode.OFF, System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        new NotesDao(store).add("hi", "user", 0, null);
        llm.reply("Hello.");

        cycle.tick();

        assertThat(llm.systemPrompt(0)).contains("run without a sandbox");
    }
}
