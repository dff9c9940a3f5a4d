package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.AgentSection;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23's chanting and thrashing through the real cycle: a scripted fake model, the default safety limits, a fake
 * clock; what is asserted is the requests the model received, the rows and the safety state.
 */
class ChantingAndThrashingTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-27T09:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    Store store;
    NotesDao notes;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
        notes = new NotesDao(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    /** The default config; step 5 compares locally, so no comparison call stands in for the rules under test. */
    Cycle cycle() {
        AgentConfig d = ConfigLoader.load(ConfigSources.envOnly(Map.of("AGENT_STAGNATION_METHOD", "local"))).config();
        AgentConfig config = new AgentConfig(new AgentSection(dir.resolve("agent.db"), "tester"), d.llm(), d.cycle(),
                d.context(), d.run(), d.policy(), d.files(), d.shell(), d.cleanup(), d.safety(), d.stagnation());
        return TestWiring.cycle(config, store, llm, sink, clock);
    }

    String state() {
        return new SafetyControl(store).current().label();
    }

    long count(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("agent.db"));
             ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    /** A reply that chants a 30-character chunk until max_tokens, streamed as a server would. */
    void chantNext() {
        llm.streamed("Let me look at the file. " + "I will read the file once more. ".repeat(300), 16);
    }

    /**
     * Ticks while the agent may think (ACTIVE, as the tick loop's gate asks) and the model is asked, at most {@code max}
     * times; returns the number of requests the model received.
     */
    int tickWhileAsked(Cycle cycle, int max) {
        for (int i = 0; i < max && state().equals("ACTIVE") && cycle.tick().worked(); i++) {
            clock.advance(java.time.Duration.ofSeconds(1));
        }
        return llm.requests.size();
    }

    static String commands(String json) {
        return "\n# Commands:\n```json\n" + json + "\n```\n# End commands\n";
    }

    // --- chanting ---

    @Test
    void a_chant_that_answers_a_person_is_shown_cut_and_the_model_is_not_asked_again_until_the_next_message()
            throws Exception {
        notes.add("what is in notes.txt?", "user", 0, null);
        for (int i = 0; i < 3; i++) chantNext();
        Cycle cycle = cycle();

        int requests = tickWhileAsked(cycle, 5);

        assertThat(requests).as("one request: the cut answer is the answer (issue 35: two, then a lockout)").isEqualTo(1);
        assertThat(state()).isEqualTo("ACTIVE");
        assertThat(sink.of(AgentEvent.ProseAnswer.class)).singleElement().extracting(AgentEvent.ProseAnswer::text)
                .asString().startsWith("Let me look at the file.").endsWith("…");
        assertThat(sink.of(AgentEvent.Info.class)).anySatisfy(i -> assertThat(i.text())
                .contains("not asked again until your next message").contains("/model NAME"));
        assertThat(count("SELECT count(*) FROM process_log WHERE name = 'chanting' AND wake = 0 AND seen_tick IS NULL"))
                .as("the model is told at the next wake").isEqualTo(1);

        notes.add("try again", "user", 0, null);
        assertThat(tickWhileAsked(cycle, 1)).isEqualTo(2);
        assertThat(llm.userPrompt(1)).as("the cut is named as chanting").contains("chanting");
    }

    @Test
    void a_model_that_chants_every_reply_is_paused_at_its_second_chanting_reply_and_the_second_request_names_chanting() throws Exception {
        // no person waits (a peer's or the system's note): the chant row wakes the model, and a second chant pauses
        notes.add("what is in notes.txt?", "system", 0, null);
        for (int i = 0; i < 12; i++) chantNext();
        Cycle cycle = cycle();

        int requests = tickWhileAsked(cycle, 12);

        assertThat(requests).as("requests until the pause (8 before issue 23)").isEqualTo(2);
        assertThat(state()).startsWith("ERROR_PAUSED");
        assertThat(count("SELECT count(*) FROM process_log WHERE name = 'chanting'")).isEqualTo(2);
        assertThat(count("SELECT count(*) FROM safety_audit WHERE event = 'error_pause' AND detail LIKE 'chanting:%'"))
                .isEqualTo(1);
        assertThat(llm.userPrompt(1)).as("the cut is named as chanting, not as a malformed block")
                .contains("chanting").doesNotContainIgnoringCase("malformed");
        assertThat(count("SELECT sum(prompt_tokens) FROM agent_log")).as("prompt tokens until the pause")
                .isLessThan(6_000);   // 4,258 here; 19,590 over 8 replies before issue 23
    }

    @Test
    void a_persons_message_starts_a_new_task_so_one_chant_in_each_of_two_tasks_does_not_pause() throws Exception {
        notes.add("first question", "user", 0, null);
        chantNext();
        Cycle cycle = cycle();
        assertThat(cycle.tick().worked()).isTrue();
        notes.add("second question", "user", 0, null);
        chantNext();
        assertThat(cycle.tick().worked()).isTrue();
        assertThat(state()).isEqualTo("ACTIVE");

        chantNext();
        assertThat(cycle.tick().worked()).as("a chant that answered a person wakes nothing (issue 35)").isFalse();
        assertThat(state()).isEqualTo("ACTIVE");
    }

    @Test
    void a_restart_remembers_the_chant_of_the_task_and_an_unlock_starts_a_new_task() throws Exception {
        notes.add("go", "system", 0, null);
        chantNext();
        assertThat(cycle().tick().worked()).isTrue();
        chantNext();
        assertThat(cycle().tick().worked()).as("after a restart").isTrue();
        assertThat(state()).startsWith("ERROR_PAUSED");

        new SafetyControl(store).unlock("try again", Requester.thisProcess());
        notes.add("go on", "system", 0, null);
        chantNext();
        Cycle after = cycle();
        assertThat(after.tick().worked()).isTrue();
        assertThat(state()).as("the first chant after an unlock").isEqualTo("ACTIVE");
    }

    // --- thrashing ---

    /** Tick {@code i}: a command never tried before fails, beside a new diary entry (a success that moves nothing). */
    void thrashNext(int i) {
        llm.reply("Attempt " + i + ": maybe entry " + (500 + i) + " is the one." + commands("[{\"type\": \"memory_delete\","
                + " \"args\": {\"id\": " + (500 + i) + "}}, {\"type\": \"diary_entry\", \"args\": {\"text\": \"tried "
                + (500 + i) + "\"}}]"));
    }

    @Test
    void thrashing_at_half_failures_with_every_fingerprint_new_alerts_and_then_pauses_within_twenty_calls() throws Exception {
        notes.add("clean up the memory", "user", 0, null);
        for (int i = 0; i < 60; i++) thrashNext(i);
        Cycle cycle = cycle();

        int requests = tickWhileAsked(cycle, 60);

        // before issue 23 this script ran 24 calls, until the reflex's rest (the issue: the reflex or the 50-call cap)
        assertThat(requests).as("requests until the stop: within 20, at the 20th command").isEqualTo(10);
        assertThat(count("SELECT tick_id FROM process_log WHERE result LIKE 'SYSTEM ALERT: You are thrashing%'"))
                .as("the tick of the alert: the 10th command").isEqualTo(5);
        assertThat(state()).startsWith("ERROR_PAUSED");
        assertThat(count("SELECT count(*) FROM safety_audit WHERE event = 'error_pause' AND detail LIKE 'thrashing:%'"))
                .isEqualTo(1);
        long alertId = count("SELECT min(id) FROM process_log WHERE result LIKE 'SYSTEM ALERT: You are thrashing%'");
        long pauseId = count("SELECT min(id) FROM process_log WHERE result LIKE '%[the agent is paused: thrashing%'");
        assertThat(alertId).as("a thrash alert").isPositive();
        assertThat(pauseId).as("the row that paused").isPositive();
        assertThat(alertId).as("the alert comes before the pause").isLessThan(pauseId);
        assertThat(String.join("\n", llm.requests.stream().map(r -> r.messages().get(1).content()).toList()))
                .as("the model saw the alert").contains("SYSTEM ALERT: You are thrashing");
    }

    @Test
    void fifteen_different_questions_each_answered_beside_a_failed_lookup_never_alert_or_pause() throws Exception {
        Cycle cycle = cycle();
        for (int i = 0; i < 15; i++) {
            notes.add("question " + i + ": what does entry " + (700 + i) + " say?", "user", 0, null);
            llm.reply("Answer " + i + "." + commands("[{\"type\": \"memory_delete\", \"args\": {\"id\": " + (700 + i)
                    + "}}, {\"type\": \"send_message\", \"args\": {\"text\": \"entry " + (700 + i) + " is gone\"}}]"));
            assertThat(cycle.tick().worked()).as("question " + i).isTrue();
            clock.advance(java.time.Duration.ofSeconds(30));
        }
        assertThat(state()).isEqualTo("ACTIVE");
        assertThat(count("SELECT count(*) FROM process_log WHERE result LIKE '%SYSTEM ALERT%'")).isZero();
        assertThat(count("SELECT count(*) FROM safety_audit")).isZero();
    }
}
