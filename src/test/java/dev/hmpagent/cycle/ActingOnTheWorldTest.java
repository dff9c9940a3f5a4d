package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.AgentSection;
import dev.hmpagent.config.PolicySection;
import dev.hmpagent.config.ShellSection;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shell and file commands through the whole cycle: policy, process runner, results one tick later. */
class ActingOnTheWorldTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    /** The client delegated llm_task calls get: never the main one. */
    final FakeLlmClient taskLlm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    final Semaphore arrived = new Semaphore(0);
    Store store;
    Path db;
    AgentConfig config;
    Wiring.Tools tools;
    Cycle cycle;

    @BeforeEach
    void open() {
        db = dir.resolve("agent.db");
        store = Store.open(db, clock);
        AgentConfig d = AgentConfig.defaults();
        PolicySection policy = new PolicySection(d.policy().shellDeny(), d.policy().shellAsk(),
                List.of("echo", "ls", "sleep", "sh"));
        config = new AgentConfig(new AgentSection(db, "tester"), d.llm(), d.cycle(), d.context(), d.run(), policy,
                d.files(), new ShellSection(Duration.ofSeconds(5), Duration.ofSeconds(10), 2, 4096), d.cleanup());
        tools = Wiring.tools(config, Approver.NOBODY, List.of(), Map.of("PATH", System.getenv("PATH"),
                "OPENAI_API_KEY", "sk-never-shown"), clock, () -> taskLlm);
        tools.completions().onArrival(arrived::release);
        TestWiring.startWrites(store, config, sink);   // what a start writes: llm_registry lists the configured LLM
        cycle = Wiring.cycle(config, store, llm, sink, clock, TestWiring.time(clock), tools);
    }

    @AfterEach
    void close() {
        tools.processes().stopAll("test over");
        store.close();
    }

    static String commands(String json) {
        return "\n# Commands:\n```json\n" + json + "\n```\n# End commands\n";
    }

    long count(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    void awaitResult() throws InterruptedException {
        assertThat(arrived.tryAcquire(30, TimeUnit.SECONDS)).as("the process finished").isTrue();
    }

    @Test
    void a_shell_command_runs_without_blocking_the_tick_and_its_result_shows_one_tick_later() throws Exception {
        new NotesDao(store).add("what is in the workspace?", "user", 0, null);
        llm.reply("Let me look." + commands("{\"cmd_id\": \"s1\", \"type\": \"shell\", \"args\": {\"command\": \"echo hello from the shell\"}}"))
                .reply("It said hello.");

        assertThat(cycle.tick().outcome()).isEqualTo("thought");
        ProcessRow row = new ProcessLogDao(store).byTick(1).get(0);
        assertThat(row.status()).as("the tick did not wait for the process: " + row.result()).isIn("running", "ok");

        awaitResult();
        assertThat(cycle.tick().worked()).as("the result wakes the LLM").isTrue();
        assertThat(llm.userPrompt(1)).contains("cmd s1, shell").contains("hello from the shell");
        assertThat(count("SELECT count(*) FROM process_log WHERE cmd_id = 's1' AND status = 'ok'")).isEqualTo(1);
        assertThat(count("SELECT commands_run FROM agent_log WHERE tick_id = 1")).isEqualTo(1);
        assertThat(cycle.tick().worked()).isFalse();
    }

    @Test
    void a_non_zero_exit_is_an_error_with_its_exit_code() throws Exception {
        new NotesDao(store).add("go", "user", 0, null);
        llm.reply("x" + commands("{\"cmd_id\": \"s\", \"type\": \"shell\", \"args\": {\"command\": \"ls /no/such/dir\"}}"))
                .reply("it failed");
        cycle.tick();
        awaitResult();
        cycle.tick();
        assertThat(count("SELECT count(*) FROM process_log WHERE cmd_id = 's' AND status = 'error' "
                + "AND error_code = 'EEXIT(2)'")).isEqualTo(1);
        assertThat(llm.userPrompt(1)).contains("exit 2").contains("No such file");
    }

    @Test
    void a_command_no_rule_allows_is_denied_headless_as_EPERM_and_never_runs() throws Exception {
        Path victim = Files.writeString(dir.resolve("workspace-victim.txt"), "keep me");
        new NotesDao(store).add("go", "user", 0, null);
        llm.reply("x" + commands("[{\"cmd_id\": \"r\", \"type\": \"shell\", \"args\": {\"command\": \"rm " + victim + "\"}},"
                        + "{\"cmd_id\": \"d\", \"type\": \"shell\", \"args\": {\"command\": \"cat " + db + "\"}}]"))
                .reply("refused");
        cycle.tick();
        assertThat(count("SELECT count(*) FROM process_log WHERE status = 'error' AND error_code = 'EPERM' "
                + "AND severity = 'critical'")).isEqualTo(2);
        assertThat(Files.exists(victim)).isTrue();
        assertThat(cycle.tick().worked()).isTrue();
        assertThat(llm.userPrompt(1)).contains("shell refused").contains("nobody can answer");
    }

    @Test
    void a_reserved_command_type_is_refused_as_a_critical_EPERM() throws Exception {
        new NotesDao(store).add("go", "user", 0, null);
        llm.reply("x" + commands("{\"cmd_id\": \"u\", \"type\": \"unlock\", \"args\": {}}"));
        cycle.tick();
        assertThat(count("SELECT count(*) FROM process_log WHERE cmd_id = 'u' AND error_code = 'EPERM' "
                + "AND severity = 'critical'")).isEqualTo(1);
    }

    @Test
    void a_tool_named_with_a_word_of_our_safety_is_refused_naming_the_word_but_one_that_merely_contains_it_is_not()
            throws Exception {
        new NotesDao(store).add("go", "user", 0, null);
        llm.reply("x" + commands("[{\"cmd_id\": \"l\", \"type\": \"mcp.door.lock_agent\", \"args\": {}},"
                + "{\"cmd_id\": \"b\", \"type\": \"mcp.github.create_block\", \"args\": {}}]"));
        cycle.tick();
        List<ProcessRow> rows = new ProcessLogDao(store).byTick(1);
        assertThat(rows).filteredOn(r -> r.cmdId().equals("l")).singleElement().satisfies(r -> {
            assertThat(r.painLevel()).as("critical").isEqualTo(1.0);
            assertThat(r.result()).contains("EPERM: mcp.door.lock_agent refused: ").contains("\"mcp.door.lock_agent\" (its word \"lock\") is reserved for people");
        });
        assertThat(rows).filteredOn(r -> r.cmdId().equals("b")).singleElement()
                .as("not reserved: the [mcp] policy decides it (headless, nobody allowed it)")
                .satisfies(r -> assertThat(r.result()).doesNotContain("reserved")
                        .contains("mcp.github.create_block not approved: nobody is at a terminal"));
    }

    @Test
    void files_are_written_and_read_inside_the_workspace_and_an_escape_is_EPERM() throws Exception {
        new NotesDao(store).add("go", "user", 0, null);
        llm.reply("x" + commands("""
                [{"cmd_id": "w", "type": "file_write", "args": {"path": "plan.md", "content": "step one"}},
                 {"cmd_id": "r", "type": "file_read", "args": {"path": "plan.md"}},
                 {"cmd_id": "e", "type": "file_read", "args": {"path": "../agent.db"}},
                 {"cmd_id": "h", "type": "file_read", "args": {"path": "/etc/hostname"}}]"""))
                .reply("read it");
        cycle.tick();
        assertThat(Files.readString(dir.resolve("workspace/plan.md"))).isEqualTo("step one");
        assertThat(count("SELECT count(*) FROM process_log WHERE cmd_id IN ('e', 'h') AND error_code = 'EPERM'"))
                .isEqualTo(2);
        assertThat(cycle.tick().worked()).isTrue();
        assertThat(llm.userPrompt(1)).contains("cmd r, file_read").contains("step one");
    }

    @Test
    void a_halt_kills_a_running_process_and_its_row_says_so() throws Exception {
        new NotesDao(store).add("go", "user", 0, null);
        llm.reply("x" + commands("{\"cmd_id\": \"z\", \"type\": \"shell\", \"args\": {\"command\": \"echo started; sleep 30\"}}"));
        cycle.tick();
        assertThat(tools.processes().running()).hasSize(1);
        long pid = tools.processes().running().get(0).pid();

        assertThat(tools.processes().stopAll("killed by a halt")).isEqualTo(1);
        awaitResult();
        cycle.recordResults();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(count("SELECT count(*) FROM process_log WHERE cmd_id = 'z' AND status = 'error' "
                + "AND error_code = 'EHALT'")).isEqualTo(1);
        assertThat(sink.of(AgentEvent.CommandDone.class)).anySatisfy(e -> assertThat(e.result()).contains("killed by a halt"));
    }

    @Test
    void process_list_and_process_stop_see_and_stop_a_running_process() throws Exception {
        new NotesDao(store).add("go", "user", 0, null);
        llm.reply("x" + commands("{\"cmd_id\": \"long\", \"type\": \"shell\", \"args\": {\"command\": \"sleep 30\"}}"))
                .reply("y" + commands("[{\"cmd_id\": \"l\", \"type\": \"process_list\"}, {\"cmd_id\": \"s\", \"type\": \"process_stop\", \"args\": {\"id\": \"long\"}}]"))
                .reply("stopped");
        cycle.tick();
        new NotesDao(store).add("stop it", "user", 0, null);
        cycle.tick();
        assertThat(new ProcessLogDao(store).byTick(2).get(0).result()).contains("1 process running").contains("sleep 30");
        awaitResult();
        awaitResult();
        cycle.recordResults();
        assertThat(count("SELECT count(*) FROM process_log WHERE cmd_id = 'long' AND status = 'warning'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM process_log WHERE cmd_id = 's' AND status = 'ok'")).isEqualTo(1);
        assertThat(tools.processes().running()).isEmpty();
    }

    @Test
    void llm_task_runs_on_its_own_client_and_its_answer_and_tokens_arrive_a_tick_later() throws Exception {
        taskLlm.reply("The capital of France is Paris.");
        new NotesDao(store).add("ask a helper", "user", 0, null);
        llm.reply("Delegating." + commands("{\"cmd_id\": \"t\", \"type\": \"llm_task\", \"args\": {\"task_description\": \"What is the capital of France?\"}}"))
                .reply("Paris, then.");
        cycle.tick();
        long tokensBefore = count("SELECT prompt_tokens + completion_tokens FROM agent_log WHERE tick_id = 1");
        awaitResult();
        assertThat(cycle.tick().worked()).isTrue();
        assertThat(taskLlm.requests).singleElement().satisfies(r ->
                assertThat(r.messages().get(1).content()).isEqualTo("What is the capital of France?"));
        assertThat(llm.requests).as("the main client asked twice, the task went elsewhere").hasSize(2);
        assertThat(llm.userPrompt(1)).contains("cmd t, llm_task").contains("Paris");
        assertThat(count("SELECT prompt_tokens + completion_tokens FROM agent_log WHERE tick_id = 1"))
                .as("the task's tokens count toward the tick that asked").isGreaterThan(tokensBefore);
    }

    @Test
    void the_agents_scripts_are_listed_in_context_0_and_script_run_goes_through_the_policy() throws Exception {
        new NotesDao(store).add("save and run a script", "user", 0, null);
        llm.reply("x" + commands("""
                [{"cmd_id": "a", "type": "script_add", "args": {"name": "hello", "description": "says hello", "language": "bash", "code": "echo hi from $1"}},
                 {"cmd_id": "r", "type": "script_run", "args": {"name": "hello", "args": ["ann"]}}]"""))
                .reply("denied then");
        cycle.tick();
        // bash is no allowed rule here and nobody can answer: the script does not run
        assertThat(count("SELECT count(*) FROM process_log WHERE cmd_id = 'r' AND error_code = 'EPERM'")).isEqualTo(1);
        assertThat(cycle.tick().worked()).isTrue();
        assertThat(llm.systemPrompt(1)).contains("Your scripts").contains("- hello (bash, v1)").contains("says hello");
        assertThat(llm.userPrompt(1)).contains("script_run refused").contains("bash");
    }

    @Test
    void an_allowed_script_runs_as_a_process_with_its_args_and_its_output_comes_back() throws Exception {
        new NotesDao(store).add("run it", "user", 0, null);
        llm.reply("x" + commands("""
                [{"cmd_id": "a", "type": "script_add", "args": {"name": "greet", "language": "sh", "code": "echo hi from $1"}},
                 {"cmd_id": "r", "type": "script_run", "args": {"name": "greet", "args": ["ann"]}}]"""))
                .reply("it ran");
        cycle.tick();
        awaitResult();
        assertThat(cycle.tick().worked()).isTrue();
        assertThat(llm.userPrompt(1)).contains("cmd r, script_run").contains("hi from ann");
        assertThat(dir.resolve("agent-scripts").resolve("greet-1.sh")).exists();
    }

    @Test
    void llm_list_shows_the_configured_llm_without_its_key_and_selecting_another_says_it_is_not_used() throws Exception {
        new NotesDao(store).add("which llm?", "user", 0, null);
        llm.reply("x" + commands("[{\"cmd_id\": \"l\", \"type\": \"llm_list\"}, "
                + "{\"cmd_id\": \"s\", \"type\": \"llm_select\", \"args\": {\"id\": \"main\"}}]"));
        cycle.tick();
        List<ProcessRow> rows = new ProcessLogDao(store).byTick(1);
        assertThat(rows.get(0).result()).contains("main").contains(config.llm().model()).doesNotContain("sk-");
        assertThat(rows.get(1).status()).isEqualTo("ok");
    }
}
