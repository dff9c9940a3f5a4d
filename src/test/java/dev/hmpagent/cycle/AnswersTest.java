package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.ResponseRow;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.StagnationDao;
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

/** Every answer reaches the person: a message, else the reply's prose, else one line saying nothing could be shown. */
class AnswersTest {
    /**
     * Commands that end the turn without a message to the person (issue 33: without the idle, the turn goes on and
     * the model is asked again).
     */
    static final String DIARY_THEN_IDLE = "[{\"cmd_id\": \"d\", \"type\": \"diary_entry\", \"args\": {\"text\": \"x\"}},"
            + " {\"cmd_id\": \"i\", \"type\": \"idle\", \"args\": {\"seconds\": 600}}]";
    static final String PONG = "The person pings me; I answer." + commands(
            "{\"cmd_id\": \"c-1\", \"type\": \"send_message\", \"args\": {\"text\": \"pong\"}}");

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-27T08:00:00Z");
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

    Cycle cycle() {
        return TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock);
    }

    static String commands(String json) {
        return "\n# Commands:\n```json\n" + json + "\n```\n# End commands\n";
    }

    /** A person's message, then ticks until the cycle finds nothing to do (at most five). */
    void ask(Cycle cycle, String text) {
        notes.add(text, "user", 0, null);
        for (int i = 0; i < 5 && cycle.tick().worked(); i++) {
            clock.advance(Duration.ofSeconds(1));
        }
    }

    List<String> problems() {
        return sink.of(AgentEvent.Problem.class).stream().map(AgentEvent.Problem::text).toList();
    }

    @Test
    void the_same_answer_to_a_second_ping_is_shown_stored_and_its_send_message_runs() {
        llm.reply(PONG).reply(PONG);
        Cycle cycle = cycle();

        ask(cycle, "ping");
        ask(cycle, "ping");

        assertThat(sink.of(AgentEvent.MessageToUser.class)).extracting(AgentEvent.MessageToUser::text)
                .containsExactly("pong", "pong");
        assertThat(new SqlFile(dir.resolve("agent.db")).rows("SELECT text FROM notes WHERE source = 'llm' ORDER BY id"))
                .containsExactly("pong", "pong");
        List<ResponseRow> replies = new ResponsesDao(store).latest(10);
        assertThat(replies).extracting(ResponseRow::stagnation).containsExactly(false, false);
        assertThat(replies.get(1).content()).isEqualTo(PONG);
        assertThat(new ProcessLogDao(store).byTick(2)).extracting(ProcessRow::name, ProcessRow::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("send_message", "ok"));
        // a reply to a new message is no sign of stagnation, though it repeats the last word for word
        assertThat(new StagnationDao(store).latest(5)).extracting(StagnationDao.Metric::identical,
                StagnationDao.Metric::repeatOfTick).containsExactly(org.assertj.core.groups.Tuple.tuple(false, 0L),
                org.assertj.core.groups.Tuple.tuple(false, 0L));
        assertThat(cycle.leftUnanswered()).isFalse();
    }

    @Test
    void a_reply_without_a_message_shows_its_prose_marked_as_such_and_nothing_else() {
        llm.reply("2 + 2 = 4.");
        Cycle cycle = cycle();

        ask(cycle, "what is 2+2?");

        assertThat(sink.of(AgentEvent.ProseAnswer.class)).extracting(AgentEvent.ProseAnswer::tickId,
                AgentEvent.ProseAnswer::text).containsExactly(org.assertj.core.groups.Tuple.tuple(1L, "2 + 2 = 4."));
        assertThat(sink.of(AgentEvent.MessageToUser.class)).isEmpty();
        assertThat(problems()).isEmpty();
        assertThat(cycle.leftUnanswered()).isFalse();
    }

    @Test
    void the_thought_of_a_working_reply_is_not_an_answer_when_a_later_reply_of_the_turn_answers() {
        llm.reply("Let me look at the commands first." + commands(
                        "{\"cmd_id\": \"h\", \"type\": \"help\", \"args\": {\"type\": \"diary_read\"}}"))
                .reply("diary_read takes a query and a limit.");
        Cycle cycle = cycle();

        ask(cycle, "how do I read the diary?");

        assertThat(llm.requests).as("help's result woke the model once").hasSize(2);
        assertThat(sink.of(AgentEvent.ProseAnswer.class)).extracting(AgentEvent.ProseAnswer::text)
                .containsExactly("diary_read takes a query and a limit.");
        assertThat(problems()).isEmpty();
    }

    @Test
    void the_prose_beside_a_block_without_a_message_is_shown_and_a_send_message_shows_no_prose() {
        llm.reply("I note it down." + commands(DIARY_THEN_IDLE)).reply(PONG);
        Cycle cycle = cycle();

        ask(cycle, "remember x");
        ask(cycle, "ping");

        assertThat(sink.of(AgentEvent.ProseAnswer.class)).extracting(AgentEvent.ProseAnswer::text)
                .containsExactly("I note it down.");
        assertThat(sink.of(AgentEvent.MessageToUser.class)).extracting(AgentEvent.MessageToUser::text)
                .containsExactly("pong");
    }

    @Test
    void the_prose_of_a_thought_nobody_asked_for_is_not_shown_as_an_answer() {
        llm.reply("Thinking on my own.");
        Cycle cycle = TestWiring.cycle(AntiStagnationTest.config("cycle.autonomous", "true"), store, llm, sink, clock);

        cycle.tick();

        assertThat(sink.of(AgentEvent.ProseAnswer.class)).isEmpty();
        assertThat(cycle.leftUnanswered()).isFalse();
    }

    @Test
    void after_a_prose_answer_the_agents_own_thoughts_are_not_shown_as_answers() {
        llm.reply("2 + 2 = 4.").reply("Now I muse on my own.");
        Cycle cycle = TestWiring.cycle(AntiStagnationTest.config("cycle.autonomous", "true"), store, llm, sink, clock);
        notes.add("what is 2+2?", "user", 0, null);

        cycle.tick();
        clock.advance(Duration.ofSeconds(30));
        cycle.tick();   // autonomous: nobody asked

        assertThat(sink.of(AgentEvent.ProseAnswer.class)).extracting(AgentEvent.ProseAnswer::text)
                .containsExactly("2 + 2 = 4.");
        assertThat(problems()).isEmpty();
        assertThat(cycle.leftUnanswered()).isFalse();
    }

    @Test
    void an_answer_that_takes_a_round_trip_through_a_command_is_not_called_unanswered() {
        llm.reply(commands("{\"cmd_id\": \"h\", \"type\": \"help\", \"args\": {\"type\": \"diary_entry\"}}"))
                .reply(PONG);
        Cycle cycle = cycle();

        ask(cycle, "how do I write a diary entry?");

        assertThat(llm.requests).hasSize(2);
        assertThat(sink.of(AgentEvent.MessageToUser.class)).extracting(AgentEvent.MessageToUser::text)
                .containsExactly("pong");
        assertThat(problems()).isEmpty();
        assertThat(cycle.leftUnanswered()).isFalse();
    }

    @Test
    void an_empty_reply_to_a_person_says_so_in_one_line_once_the_agent_goes_quiet() {
        llm.reply("");
        Cycle cycle = cycle();

        ask(cycle, "hello?");

        assertThat(problems()).singleElement().asString().startsWith("no answer to your message: the model answered"
                + " (tick 1) but its reply was empty").endsWith("send your message again, or try another model");
        assertThat(cycle.leftUnanswered()).isTrue();
    }

    @Test
    void a_reply_of_commands_alone_that_sends_no_message_is_unanswered_and_a_later_message_answers() {
        llm.reply(commands(DIARY_THEN_IDLE)).reply(PONG);
        Cycle cycle = cycle();

        ask(cycle, "hello?");
        assertThat(problems()).singleElement().asString()
                .contains("its reply held only commands, none of them a message to you");
        assertThat(cycle.leftUnanswered()).isTrue();

        ask(cycle, "ping");
        assertThat(cycle.leftUnanswered()).as("the next message was answered").isFalse();
        assertThat(problems()).hasSize(1);
    }

    @Test
    void a_message_still_waiting_for_its_answer_when_the_loop_ends_is_unanswered() {
        llm.reply(commands("{\"cmd_id\": \"d\", \"type\": \"diary_entry\", \"args\": {\"text\": \"x\"}}"));
        Cycle cycle = cycle();
        notes.add("hello?", "user", 0, null);

        cycle.tick();   // the loop ends before the cycle ever finds itself with nothing to do

        assertThat(problems()).isEmpty();
        assertThat(cycle.leftUnanswered()).isTrue();
        assertThat(problems()).singleElement().asString().startsWith("no answer to your message");
    }
}
