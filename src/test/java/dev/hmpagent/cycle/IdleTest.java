package dev.hmpagent.cycle;

import dev.hmpagent.runtime.TestWiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.AgentSection;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessStatus;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The LLM's own idle and pause: no LLM call until a wake condition holds; a person always wakes it. */
class IdleTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    Store store;
    NotesDao notes;
    Cycle cycle;

    @BeforeEach
    void open() {
        Path db = dir.resolve("agent.db");
        store = Store.open(db, clock);
        notes = new NotesDao(store);
        AgentConfig d = AgentConfig.defaults();
        AgentConfig config = new AgentConfig(new AgentSection(db, "tester"), d.llm(), d.cycle(), d.context(), d.run(),
                d.policy(), d.files(), d.shell(), d.cleanup());
        cycle = TestWiring.cycle(config, store, llm, sink, clock);
    }

    @AfterEach
    void close() {
        store.close();
    }

    static String commands(String json) {
        return "\n# Commands:\n```json\n" + json + "\n```\n# End commands\n";
    }

    void goIdle(String args) {
        notes.add("rest a while", "user", 0, null);
        llm.reply("Resting." + commands("{\"cmd_id\": \"i\", \"type\": \"idle\", \"args\": " + args + "}"));
        assertThat(cycle.tick().outcome()).isEqualTo("thought");
    }

    /** Polls the way the loop does, each a second apart; returns how many LLM calls were made. */
    int poll(int times) {
        int before = llm.requests.size();
        for (int i = 0; i < times; i++) {
            cycle.tick();
            clock.advance(Duration.ofSeconds(1));
        }
        return llm.requests.size() - before;
    }

    @Test
    void an_idle_agent_makes_no_call_until_its_time_passes_even_with_new_results_and_notes() {
        goIdle("{\"seconds\": 60}");
        notes.add("from a script", "cli", 0, null);
        assertThat(poll(30)).as("idle: nothing wakes it but its conditions").isZero();
        assertThat(cycle.status().phase()).isEqualTo(CycleStatus.Phase.IDLE);
        llm.reply("Awake.");
        assertThat(poll(40)).isEqualTo(1);
        assertThat(llm.userPrompt(1)).contains("from a script");
        assertThat(new dev.hmpagent.store.AgentLogDao(store).latest(1).get(0).wakeReason())
                .isEqualTo("idle ended: the time you set passed");
    }

    @Test
    void a_persons_message_always_ends_idle() {
        goIdle("{\"seconds\": 3600}");
        assertThat(poll(5)).isZero();
        notes.add("wake up", "user", 0, null);
        llm.reply("I am here.");
        assertThat(poll(1)).isEqualTo(1);
        assertThat(llm.userPrompt(1)).contains("wake up");
    }

    @Test
    void a_note_matching_the_filter_ends_idle_and_others_do_not() {
        goIdle("{\"seconds\": 3600, \"note\": {\"tags\": [\"deploy\"]}}");
        notes.add("unrelated", "cli", 0, "misc");
        assertThat(poll(5)).isZero();
        notes.add("deploy done", "cli", 0, "deploy");
        llm.reply("Deploy finished.");
        assertThat(poll(1)).isEqualTo(1);
    }

    @Test
    void the_end_of_a_named_process_ends_idle() {
        ProcessLogDao processLog = new ProcessLogDao(store);
        long id = processLog.enqueue(0, "shell", "p", "{}", "f");
        processLog.startRunning(id);
        goIdle("{\"seconds\": 3600, \"process\": " + id + "}");
        assertThat(poll(5)).isZero();
        processLog.finish(id, new ProcessLogDao.Finished(ProcessStatus.OK, "exit 0", null, null, 0, null, true));
        llm.reply("It finished.");
        assertThat(poll(1)).isEqualTo(1);
    }

    @Test
    void a_change_to_the_named_file_ends_idle() throws Exception {
        Path watched = Files.createDirectories(dir.resolve("workspace")).resolve("out.txt");
        Files.writeString(watched, "one");
        goIdle("{\"seconds\": 3600, \"file\": \"out.txt\"}");
        assertThat(poll(5)).isZero();
        Files.writeString(watched, "one and two");
        llm.reply("The file changed.");
        assertThat(poll(1)).isEqualTo(1);
    }

    @Test
    void idle_is_bounded_by_max_idle_and_a_longer_one_is_refused() {
        goIdle("{\"seconds\": 999999}");
        assertThat(new ProcessLogDao(store).byTick(1).get(0).result()).contains("args.seconds must be from 1 to 3600");
    }

    @Test
    void a_pause_holds_the_next_turn_but_not_a_persons_message() {
        notes.add("go", "user", 0, null);
        llm.reply("Pausing." + commands("[{\"cmd_id\": \"p\", \"type\": \"pause\", \"args\": {\"seconds\": 60}},"
                + " {\"cmd_id\": \"h\", \"type\": \"help\", \"args\": {\"type\": \"idle\"}}]"));
        cycle.tick();
        assertThat(poll(30)).as("the help result waits for the pause").isZero();
        notes.add("hello?", "user", 0, null);
        llm.reply("Yes?");
        assertThat(poll(1)).as("a person does not wait").isEqualTo(1);
        llm.reply("later");
        assertThat(poll(5)).isZero();
    }
}
