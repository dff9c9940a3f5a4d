package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.AgentSection;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import dev.hmpagent.testing.SqlFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No silent stop (issue 33): a reply that ran commands without ending its turn is followed by another call with their
 * results; a message to the person, an idle or a reply with no command ends the turn, and then nothing but something
 * new wakes the LLM. While draining, the LLM's own idle or pause with a time it set is waited for ({@link
 * Cycle#heldUntil()}).
 */
class NoSilentStopTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
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

    static String reply(String thought, String... commands) {
        return thought + "\n# Commands:\n```json\n[" + String.join(",\n", commands) + "]\n```\n# End commands\n";
    }

    static String diary(String text) {
        return "{\"type\": \"diary_entry\", \"args\": {\"text\": \"" + text + "\"}}";
    }

    static String say(String text) {
        return "{\"type\": \"send_message\", \"args\": {\"text\": \"" + text + "\"}}";
    }

    /** Ticks the way the loop does, a second apart; returns how many LLM calls were made. */
    int poll(int times) {
        int before = llm.requests.size();
        for (int i = 0; i < times; i++) {
            cycle.tick();
            clock.advance(Duration.ofSeconds(1));
        }
        return llm.requests.size() - before;
    }

    List<String> rows(String sql) {
        return new SqlFile(dir.resolve("agent.db")).rows(sql);
    }

    @Test
    void replies_that_only_act_are_each_followed_by_another_call_until_one_answers_the_person() {
        notes.add("Write three diary entries, then tell me.", "user", 0, null);
        llm.reply(reply("Entry 1.", diary("first entry")))
                .reply(reply("Entry 2.", diary("second entry")))
                .reply(reply("Entry 3.", diary("third entry")))
                .reply(reply("All written.", say("The three entries are written.")));

        // before: a diary_entry's success woke nothing, and the task stopped after its first entry
        assertThat(poll(10)).as("every entry, then the answer, and nothing after it").isEqualTo(4);
        assertThat(llm.userPrompt(1)).as("the next call shows the results").contains("first entry");
        assertThat(llm.userPrompt(3)).contains("third entry");
        assertThat(rows("SELECT wake FROM process_log WHERE name = 'diary_entry' ORDER BY id"))
                .as("the rows of a reply that did not end its turn wake the LLM").containsExactly("1", "1", "1");
        assertThat(rows("SELECT wake FROM process_log WHERE name = 'send_message'")).containsExactly("0");
        assertThat(new AgentLogDao(store).latest(4)).extracting(r -> r.wakeReason())
                .as("newest first").containsExactly("new results", "new results", "new results", "new message");
    }

    @Test
    void a_reply_that_acts_and_sends_a_message_ends_its_turn() {
        notes.add("Note the deadline and tell me.", "user", 0, null);
        llm.reply(reply("Noted.", diary("deadline friday"), say("Noted: Friday.")));

        assertThat(poll(10)).as("one call: the message ended the turn").isEqualTo(1);
        assertThat(rows("SELECT wake FROM process_log WHERE name = 'diary_entry'")).containsExactly("0");
    }

    @Test
    void a_reply_with_no_command_ends_its_turn_and_a_persons_message_still_wakes_it() {
        notes.add("What is 2 + 2?", "user", 0, null);
        llm.reply("4.").reply("5.");

        assertThat(poll(10)).isEqualTo(1);
        notes.add("And 2 + 3?", "user", 0, null);
        assertThat(poll(10)).isEqualTo(1);
    }

    @Test
    void a_reply_that_goes_idle_ends_its_turn_and_its_timer_is_what_a_drain_waits_for() {
        notes.add("Check back in a minute.", "user", 0, null);
        llm.reply(reply("Waiting.", diary("checking at 10:01"), "{\"type\": \"idle\", \"args\": {\"seconds\": 60}}"));

        assertThat(poll(1)).isEqualTo(1);
        assertThat(poll(1)).as("idle: no call").isZero();
        assertThat(cycle.heldUntil()).as("its own timer, about 59 s ahead").isPositive();
        llm.reply("Back.");
        assertThat(poll(60)).as("the timer ends the idle").isEqualTo(1);
        assertThat(llm.userPrompt(1)).contains("checking at 10:01");
        assertThat(cycle.heldUntil()).isEqualTo(-1);
    }

    @Test
    void an_idle_given_no_time_is_not_waited_for_by_a_drain() {
        notes.add("Wait for the deploy note.", "user", 0, null);
        llm.reply(reply("Waiting.", "{\"type\": \"idle\", \"args\": {\"note\": {\"tags\": [\"deploy\"]}}}"));

        assertThat(poll(2)).isEqualTo(1);
        assertThat(cycle.heldUntil()).as("bounded only by cycle.max_idle_s: a drain ends as before").isEqualTo(-1);
    }

    @Test
    void a_pause_that_holds_back_a_result_is_waited_for_and_one_with_nothing_waiting_is_not() {
        notes.add("Two entries, slowly.", "user", 0, null);
        llm.reply(reply("Entry 1.", diary("first"), "{\"type\": \"pause\", \"args\": {\"seconds\": 30}}"))
                .reply(reply("Done.", say("Both written.")));

        assertThat(poll(1)).isEqualTo(1);
        assertThat(cycle.tick().worked()).as("the pause holds the next call back").isFalse();
        assertThat(cycle.heldUntil()).as("a result waits behind the pause").isPositive();
        assertThat(poll(31)).isEqualTo(1);
        clock.advance(Duration.ofSeconds(1));
        assertThat(cycle.tick().worked()).isFalse();
        assertThat(cycle.heldUntil()).as("the turn ended: nothing waits behind the pause").isEqualTo(-1);
    }

    @Test
    void only_a_finished_reply_without_a_message_or_idle_goes_on() {
        assertThat(TurnEnd.ended(List.of())).as("no command: the turn ends").isTrue();
        assertThat(TurnEnd.ended(List.of(row("file_write", "ok")))).isFalse();
        assertThat(TurnEnd.ended(List.of(row("file_write", "ok"), row("shell", "running"))))
                .as("a process still running wakes the LLM itself when it ends").isTrue();
        assertThat(TurnEnd.ended(List.of(row("file_write", "ok"), row("send_message", "ok")))).isTrue();
        assertThat(TurnEnd.ended(List.of(row("file_write", "ok"), row("note_reply", "ok")))).isTrue();
        assertThat(TurnEnd.ended(List.of(row("idle", "ok")))).isTrue();
        assertThat(TurnEnd.ended(List.of(row("send_message", "error"))))
                .as("a message that was not sent answers nobody").isFalse();
    }

    static ProcessRow row(String name, String status) {
        return new ProcessRow(1, name, "c-1", 1, "{}", status, "", 0, "", "2026-11-29T10:00:00Z");
    }
}
