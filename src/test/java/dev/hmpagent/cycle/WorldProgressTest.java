package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ReflexDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import dev.hmpagent.testing.SqlFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Progress is measured by the world, not by wording (issue 23): through the real cycle, a scripted model and a fake
 * clock, healthy work whose commands keep bringing new results is never stalled by the reflex's strong strategies,
 * and no judge call is made for a reply that follows new results; a loop that brings nothing new still is.
 */
class WorldProgressTest {
    /** What the reflex may still do on a run with recent progress: tune the temperature, ask the meta question. */
    static final Set<String> WEAK = Set.of("LLM reflex tuning", "Meta-analysis");
    /** The strict judge: whatever it is shown, "no new thoughts". */
    static final String NO_NEW_THOUGHTS = "{\"new_thoughts\": \"no\", \"novelty\": 0.05, \"new_ideas\": [],"
            + " \"refined_ideas\": [], \"discarded_ideas\": []}";

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-27T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    Store store;
    Path workspace;

    @BeforeEach
    void open() throws IOException {
        store = Store.open(dir.resolve("agent.db"), clock);
        workspace = Files.createDirectories(dir.resolve("workspace"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    /**
     * Default config on this file (its workspace beside it), autonomous; the budget out of the way (what counts toward
     * it is another part of issue 23).
     */
    AgentConfig config(String... more) {
        String[] kv = new String[more.length + 6];
        kv[0] = "cycle.autonomous";
        kv[1] = "true";
        kv[2] = "safety.token_budget";
        kv[3] = "10000000";
        kv[4] = "agent.db";
        kv[5] = dir.resolve("agent.db").toString();
        System.arraycopy(more, 0, kv, 6, more.length);
        return AntiStagnationTest.config(kv);
    }

    static String commands(String json) {
        return AntiStagnationTest.commands(json);
    }

    List<String> rows(String sql) {
        return new SqlFile(dir.resolve("agent.db")).rows(sql);
    }

    List<String> strategiesFired() {
        return new ReflexDao(store).latest(1000).stream().map(ReflexDao.Firing::strategy).toList();
    }

    /** Runs one tick after 30 s and says whether it thought. */
    boolean tick(Cycle cycle) {
        clock.advance(Duration.ofSeconds(30));
        return cycle.tick().worked();
    }

    @Test
    void twenty_terse_edits_of_a_file_all_complete_and_no_strong_strategy_fires() throws IOException {
        for (int n = 1; n <= 20; n++) {
            String content = "Draft of the note to the network team.\nThe backup fails at 02:14.\nRevision " + n + ".";
            llm.reply("Edit " + n + " of draft.txt." + commands("[{\"cmd_id\": \"w" + n + "\", \"type\": \"file_write\","
                    + " \"args\": {\"path\": \"draft.txt\", \"content\": \"" + content.replace("\n", "\\n") + "\"}},"
                    + " {\"cmd_id\": \"r" + n + "\", \"type\": \"file_read\", \"args\": {\"path\": \"draft.txt\"}}]"));
        }
        Cycle cycle = TestWiring.cycle(config(), store, llm, sink, clock);
        new NotesDao(store).add("revise draft.txt twenty times, one line at a time", "user", 0, null);
        int thought = 0;
        for (int i = 0; i < 25 && thought < 20; i++) {
            if (tick(cycle)) thought++;
        }

        assertThat(llm.requests).as("every edit was asked for").hasSize(20);
        assertThat(Files.readString(workspace.resolve("draft.txt"))).endsWith("Revision 20.");
        assertThat(rows("SELECT count(*) FROM process_log WHERE name = 'file_write' AND status IN ('ok', 'close')"))
                .containsExactly("20");
        assertThat(strategiesFired()).as("wording-only novelty may tune and ask, never rest or switch")
                .allMatch(WEAK::contains);
        assertThat(rows("SELECT count(*) FROM anti_stagnation_metrics WHERE progress = 1"))
                .as("ticks 2..20 came after an edit's new content").containsExactly("19");
    }

    @ParameterizedTest
    @ValueSource(strings = {"llm", "hybrid"})
    void thirty_polls_of_a_growing_job_with_a_strict_judge_all_complete_without_a_judge_call(String method)
            throws IOException {
        llm.judge = r -> NO_NEW_THOUGHTS;
        Path log = workspace.resolve("job.log");
        Files.writeString(log, "job started\n");
        for (int n = 1; n <= 30; n++) {
            llm.reply("Poll " + n + ": the job is still running, I look at its log again."
                    + commands("{\"cmd_id\": \"p" + n + "\", \"type\": \"file_read\", \"args\": {\"path\": \"job.log\"}}"));
        }
        Cycle cycle = TestWiring.cycle(config("stagnation.method", method), store, llm, sink, clock);
        new NotesDao(store).add("watch the job until it is done", "user", 0, null);
        int polls = 0;
        for (int i = 0; i < 40 && polls < 30; i++) {
            if (tick(cycle)) polls++;
            Files.writeString(log, "imported row " + (polls * 100) + " of 3000\n", StandardOpenOption.APPEND);
        }

        assertThat(llm.requests).as("every poll was made").hasSize(30);
        assertThat(rows("SELECT count(*) FROM process_log WHERE name = 'file_read' AND status IN ('ok', 'close')"))
                .containsExactly("30");
        assertThat(llm.comparisons).as("every poll after the first followed a new result: no judge call").isEmpty();
        assertThat(strategiesFired()).allMatch(WEAK::contains);
    }

    @Test
    void rereading_an_unchanging_file_is_no_progress_and_the_loop_still_meets_the_radical_pause() throws IOException {
        llm.judge = r -> NO_NEW_THOUGHTS;
        Files.writeString(workspace.resolve("notes.txt"), "nothing has changed here\n");
        for (int n = 1; n <= 14; n++) {
            llm.reply("Let me check notes.txt again, maybe something changed (" + n + ")."
                    + commands("{\"cmd_id\": \"c" + n + "\", \"type\": \"file_read\", \"args\": {\"path\": \"notes.txt\"}}"));
        }
        // the safety breakers' own no-progress rule stops this loop too; the reflex's answer is what is tested here
        Cycle cycle = TestWiring.cycle(config("safety.loop_lock_at", "1000", "safety.loop_alert_at", "999"), store, llm,
                sink, clock);
        new NotesDao(store).add("tell me when notes.txt changes", "user", 0, null);
        for (int i = 0; i < 14; i++) tick(cycle);

        assertThat(rows("SELECT progress FROM anti_stagnation_metrics ORDER BY id LIMIT 4"))
                .as("only the first read was news").containsExactly("0", "1", "0", "0");
        assertThat(strategiesFired()).as("no progress for a whole window: the strong ways out again")
                .contains("Radical pause");
    }

    @Test
    void a_new_note_from_a_peer_or_the_system_is_progress_no_judge_call_and_no_strong_strategy() {
        llm.judge = r -> NO_NEW_THOUGHTS;
        for (int n = 1; n <= 14; n++) llm.reply("Noted the peer's update " + n + ".");
        Cycle cycle = TestWiring.cycle(config("cycle.autonomous", "false"), store, llm, sink, clock);
        NotesDao notes = new NotesDao(store);
        for (int n = 1; n <= 14; n++) {
            notes.add("build " + n + " is green", n % 2 == 0 ? "peer" : "system", 0, null);
            assertThat(tick(cycle)).as("the note woke the LLM").isTrue();
        }

        assertThat(llm.requests).hasSize(14);
        assertThat(llm.comparisons).as("each reply came after a new note: no judge call").isEmpty();
        assertThat(rows("SELECT count(*) FROM anti_stagnation_metrics WHERE progress = 1")).containsExactly("14");
        assertThat(strategiesFired()).allMatch(WEAK::contains);
        assertThat(rows("SELECT state FROM safety_state")).containsExactly("ACTIVE");
    }

    /** A command's outcome as the executor tells it: its identity, and the progress key of its result. */
    static dev.hmpagent.safety.Operation command(String args, String result, boolean failed) {
        com.fasterxml.jackson.databind.JsonNode json;
        try {
            json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(args);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
        return new dev.hmpagent.safety.Operation(1, dev.hmpagent.safety.Operation.Source.COMMAND, "note_add",
                dev.hmpagent.safety.Fingerprint.ofCommand("note_add", json), failed ? "error" : "ok", result,
                dev.hmpagent.safety.ResultState.of("note_add", json, result, failed), java.util.Optional.empty());
    }

    @Test
    void the_same_result_again_or_a_fresh_id_is_no_news_another_result_is_and_the_monitors_text_passes_through() {
        WorldProgress world = new WorldProgress((tick, op) -> "seen: " + op.result());
        assertThat(world.onOperation(1, command("{\"text\": \"a\"}", "added (note 31)", false)))
                .isEqualTo("seen: added (note 31)");
        assertThat(world.take()).as("a first success is news").isTrue();
        assertThat(world.take()).as("taken").isFalse();
        world.onOperation(2, command("{\"text\": \"a\"}", "added (note 32)", false));
        assertThat(world.take()).as("only the agent's own id changed").isFalse();
        world.onOperation(3, command("{\"text\": \"b\"}", "added (note 33)", false));
        assertThat(world.take()).as("another command").isTrue();
        world.onOperation(4, command("{\"text\": \"a\"}", "refused: full", true));
        assertThat(world.take()).as("a failure is never progress").isFalse();
        world.onOperation(5, command("{\"text\": \"a\"}", "added, and merged with 2 others", false));
        assertThat(world.take()).as("the same command, another result").isTrue();
    }
}
