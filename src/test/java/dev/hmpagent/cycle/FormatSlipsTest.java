package dev.hmpagent.cycle;

import dev.hmpagent.runtime.TestWiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model that keeps its formatting habit (issue 22): a block the agent cannot read is the model's slip, corrected at
 * most twice in a row, never a lockout. Each scenario runs a real {@link TickLoop} until it has nothing left to do
 * and counts the requests the scripted model received.
 */
@Timeout(60)
class FormatSlipsTest {
    /** More replies than any run may use: a loop that never stops asking would take them all. */
    static final int SCRIPTED = 12;

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    Store store;
    Path db;
    NotesDao notes;

    @BeforeEach
    void open() {
        db = dir.resolve("agent.db");
        store = Store.open(db, clock);
        notes = new NotesDao(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    static String block(String json) {
        return "\n# Commands:\n```json\n" + json + "\n```\n# End commands\n";
    }

    /** Scripts {@code SCRIPTED} replies, each with its own first line (so no reply repeats another word for word). */
    void script(IntFunction<String> reply) {
        for (int i = 1; i <= SCRIPTED; i++) llm.reply(reply.apply(i));
    }

    /** Runs the loop until nothing is left to think about (a drain), as the agent would between two messages. */
    void runUntilQuiet() {
        TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                new WakeOrPollPacer(Duration.ofHours(1)), TimeSource.system(), Duration.ZERO, () -> true, sink);
        loop.stop(true);
        loop.run();
    }

    long count(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    String state() {
        return new SafetyControl(store).current().label();
    }

    void assertNeverStopped() throws Exception {
        assertThat(state()).isEqualTo("ACTIVE");
        assertThat(count("SELECT count(*) FROM safety_audit")).as("no alert, lockout or pause audited").isZero();
    }

    @Test
    void replies_that_do_not_slip_write_no_count() throws Exception {
        notes.add("what is 2+2?", "user", 0, null);
        script(i -> "Answer " + i + "." + block("[{\"type\": \"send_message\", \"args\": {\"text\": \"4\"}}]"));
        runUntilQuiet();
        assertThat(count("SELECT count(*) FROM config WHERE key = '" + dev.hmpagent.commands.FormatSlips.KEY + "'"))
                .as("no row written for a reply outside a chain of slips").isZero();
    }

    @Test
    void an_unreadable_block_every_reply_costs_two_corrections_then_the_prose_is_shown_and_the_agent_waits()
            throws Exception {
        notes.add("what is 2+2?", "user", 0, null);
        script(i -> "Reply " + i + ": 2 + 2 = 4." + block("[{\"type\": \"send_message\", \"args\": {\"text\": \"4\"}"));
        runUntilQuiet();

        assertThat(llm.requests).as("the message, then two corrections").hasSize(3);
        assertNeverStopped();
        assertThat(count("SELECT count(DISTINCT tick_id) FROM process_log WHERE name = 'command_parse'"
                + " AND status = 'error'")).isEqualTo(3);
        assertThat(count("SELECT count(*) FROM process_log WHERE name = 'command_parse' AND wake = 0 AND tick_id < 3"))
                .isZero();
        assertThat(count("SELECT count(*) FROM process_log WHERE name = 'command_parse' AND wake = 1 AND tick_id = 3"))
                .as("the third slip wakes nothing").isZero();
        assertThat(llm.userPrompt(1)).as("the exact error and a correct example")
                .contains("is not valid JSON").contains("\"type\": \"send_message\", \"args\": {\"text\":");
        assertThat(llm.userPrompt(1)).doesNotContain("SYSTEM ALERT").doesNotContain("PAIN");
        assertThat(sink.of(AgentEvent.Info.class)).filteredOn(i -> !i.detail())
                .extracting(AgentEvent.Info::text).anySatisfy(line -> assertThat(line)
                        .contains("could not be read").contains("waiting for your next message"));
        assertThat(sink.of(AgentEvent.ProseAnswer.class)).as("the prose once, when no correction follows")
                .extracting(AgentEvent.ProseAnswer::text).containsExactly("Reply 3: 2 + 2 = 4.");

        notes.add("and 3+3?", "user", 0, null);
        runUntilQuiet();
        assertThat(llm.requests).as("a new message gets its own two corrections, no more").hasSize(6);
        assertNeverStopped();
    }

    @Test
    void single_quotes_every_reply_never_stop_the_agent() throws Exception {
        notes.add("what is 2+2?", "user", 0, null);
        script(i -> "Answer " + i + "." + block("[{'type': 'send_message', 'args': {'text': '4'}}]"));
        runUntilQuiet();
        assertThat(llm.requests).hasSizeLessThanOrEqualTo(3);
        assertNeverStopped();
    }

    @Test
    void arguments_beside_type_every_reply_never_stop_the_agent() throws Exception {
        notes.add("what is 2+2?", "user", 0, null);
        script(i -> "Answer " + i + "." + block("[{\"type\": \"send_message\", \"text\": \"4\"}]"));
        runUntilQuiet();
        assertThat(llm.requests).hasSizeLessThanOrEqualTo(3);
        assertNeverStopped();
    }

    @Test
    void arguments_that_do_not_fit_their_command_are_a_slip_told_with_one_correct_command() throws Exception {
        notes.add("what is 2+2?", "user", 0, null);
        script(i -> "Answer " + i + "." + block("[{\"type\": \"send_message\", \"args\": {}}]"));
        runUntilQuiet();
        assertThat(llm.requests).hasSize(3);
        assertNeverStopped();
        assertThat(llm.userPrompt(1)).contains("args.text")
                .contains("a correct send_message command: {\"cmd_id\": \"c-1\", \"type\": \"send_message\"");
        assertThat(count("SELECT count(*) FROM process_log WHERE name = 'send_message' AND wake = 0")).isEqualTo(1);
    }

    @Test
    void a_command_of_no_known_shape_is_told_the_general_shape_of_a_block() throws Exception {
        notes.add("what is 2+2?", "user", 0, null);
        script(i -> "Answer " + i + "." + block("[{\"cmd_id\": \"c-1\", \"args\": {\"text\": \"4\"}}]"));
        runUntilQuiet();
        assertThat(llm.requests).hasSize(3);
        assertThat(llm.userPrompt(1)).contains("has no \"type\"").contains("a correct block is the line \"# Commands:\"");
        assertNeverStopped();
    }

    @Test
    void a_restart_in_the_middle_of_the_corrections_does_not_start_them_again() throws Exception {
        notes.add("what is 2+2?", "user", 0, null);
        script(i -> "Reply " + i + "." + block("[{\"type\": \"send_message\", \"args\": {\"text\": \"4\"}"));
        Cycle first = TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock);
        first.tick();
        first.tick();
        Cycle restarted = TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock);
        assertThat(restarted.tick().worked()).as("the second correction").isTrue();
        assertThat(restarted.tick().worked()).as("no third").isFalse();
        assertThat(llm.requests).hasSize(3);
    }

    @Test
    void a_good_reply_between_slips_starts_the_count_afresh() throws Exception {
        notes.add("look it up", "user", 0, null);
        String slip = block("[{\"type\": \"diary_search\", \"args\": {\"query\": \"x\"}");
        llm.reply("one" + slip)
                .reply("two" + block("[{\"type\": \"diary_search\", \"args\": {\"query\": \"y\"}}]"))
                .reply("three" + slip).reply("four" + slip).reply("five" + slip);
        script(i -> "never" + i);
        runUntilQuiet();
        // slip, good (its result wakes it), then three slips: the count started again at the good reply
        assertThat(llm.requests).hasSize(5);
        assertNeverStopped();
    }
}
