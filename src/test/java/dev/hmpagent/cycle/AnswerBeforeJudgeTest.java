package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.TickRecord;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import dev.hmpagent.testing.SqlFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 35, item 1: the answer is on screen the moment the main reply ends; step 5's comparison call (the judge) runs
 * after it, and after the reply's commands, off the person's path. What the judge finds still reaches every row.
 */
class AnswerBeforeJudgeTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
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

    List<String> rows(String sql) {
        return new SqlFile(dir.resolve("agent.db")).rows(sql);
    }

    @Test
    void the_answer_and_the_commands_come_before_the_judge_call_and_the_judge_still_reaches_every_row() {
        List<String> seenByJudge = new ArrayList<>();
        llm.judge = r -> {
            sink.of(AgentEvent.ProseAnswer.class).forEach(a -> seenByJudge.add("answer " + a.tickId()));
            seenByJudge.add("diary rows " + rows("SELECT count(*) FROM diary_entries").get(0));
            return "{\"new_thoughts\": \"yes\", \"novelty\": 0.7, \"new_ideas\": [\"restores\"], \"refined_ideas\": [],"
                    + " \"discarded_ideas\": []}";
        };
        llm.reply(AntiStagnationTest.A).reply(AntiStagnationTest.B);
        Cycle cycle = TestWiring.cycle(AntiStagnationTest.config("stagnation.method", "llm"), store, llm, sink, clock);
        notes.add("one", "user", 0, null);
        cycle.tick();
        notes.add("two", "user", 0, null);
        cycle.tick();

        assertThat(llm.comparisons).hasSize(1);
        assertThat(seenByJudge).as("the answer to the second message was shown before the judge was asked")
                .contains("answer 2");
        TickRecord tick2 = new AgentLogDao(store).latest(1).get(0);
        assertThat(tick2.comparisonTokens()).as("the judge's tokens reach the tick's row").isPositive();
        assertThat(rows("SELECT novelty_score || ' ' || comparison_method || ' ' || comparison_verdict || ' '"
                + " || comparison_tokens FROM llm_recent_responses WHERE tick_id = 2"))
                .containsExactly("0.7 llm new " + tick2.comparisonTokens());
        assertThat(rows("SELECT reflection FROM llm_recent_responses WHERE tick_id = 2").get(0))
                .contains("new ideas: restores").contains("novelty 0.70 vs tick 1 (llm)");
        assertThat(rows("SELECT novelty_score || ' ' || method || ' ' || comparison_tokens FROM anti_stagnation_metrics"
                + " WHERE tick_id = 2")).containsExactly("0.7 llm " + tick2.comparisonTokens());
        assertThat(rows("SELECT count(*) FROM llm_calls WHERE tick_id = 2 AND purpose = 'comparison'"))
                .containsExactly("1");
        assertThat(rows("SELECT task_tokens FROM safety_counters")).as("the budget counts the judge too")
                .containsExactly(Long.toString(tick2.promptTokens() + tick2.completionTokens()
                        + tick2.comparisonTokens()));
        assertThat(cycle.status().tokensUsed()).isEqualTo(new AgentLogDao(store).totalTokens());
    }

    @Test
    void the_commands_of_a_reply_run_before_its_judge_call() {
        List<String> seenByJudge = new ArrayList<>();
        llm.judge = r -> {
            seenByJudge.add("diary rows " + rows("SELECT count(*) FROM diary_entries").get(0));
            return "{\"new_thoughts\": \"yes\", \"novelty\": 0.6, \"new_ideas\": [], \"refined_ideas\": [],"
                    + " \"discarded_ideas\": []}";
        };
        llm.reply(AntiStagnationTest.A).reply(AntiStagnationTest.B + AntiStagnationTest.commands(
                "{\"cmd_id\": \"c-1\", \"type\": \"diary_entry\", \"args\": {\"text\": \"restores\"}}"));
        Cycle cycle = TestWiring.cycle(AntiStagnationTest.config("stagnation.method", "llm"), store, llm, sink, clock);
        notes.add("one", "user", 0, null);
        cycle.tick();
        notes.add("two", "user", 0, null);
        cycle.tick();

        assertThat(seenByJudge).containsExactly("diary rows 1");
    }

    @Test
    void on_a_server_of_ones_own_the_judge_asks_after_the_main_request_and_its_reply() {
        llm.reply(AntiStagnationTest.A).reply(AntiStagnationTest.B);
        // the default endpoint is a local Ollama
        Cycle cycle = TestWiring.cycle(AntiStagnationTest.config("stagnation.method", "llm"), store, llm, sink, clock);
        notes.add("one", "user", 0, null);
        cycle.tick();
        notes.add("two", "user", 0, null);
        cycle.tick();

        List<dev.hmpagent.llm.Message> main = llm.requests.get(1).messages();
        List<dev.hmpagent.llm.Message> judge = llm.comparisons.get(0).messages();
        assertThat(judge.subList(0, main.size())).as("the main request is the judge's prefix").isEqualTo(main);
        assertThat(judge.get(main.size())).isEqualTo(dev.hmpagent.llm.Message.assistant(AntiStagnationTest.B));
        assertThat(judge).hasSize(main.size() + 2);
        assertThat(llm.comparisons.get(0).maxTokens()).as("what the judge must say fits").isEqualTo(200);
    }

    @Test
    void the_length_limit_notice_comes_under_the_answer_it_is_about() {
        llm.replyCut("The answer is four, and then the model went on and on until");
        Cycle cycle = TestWiring.cycle(AntiStagnationTest.config(), store, llm, sink, clock);
        notes.add("what is 2 + 2?", "user", 0, null);
        cycle.tick();

        List<String> said = sink.events.stream()
                .filter(e -> e instanceof AgentEvent.ProseAnswer || e instanceof AgentEvent.Info i
                        && i.text().contains("length limit"))
                .map(e -> e instanceof AgentEvent.ProseAnswer a ? "answer: " + a.text() : "notice").toList();
        assertThat(said).containsExactly("answer: The answer is four, and then the model went on and on until", "notice");
    }
}
