package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.store.LlmCall.Outcome;
import dev.hmpagent.store.LlmCall.Purpose;
import dev.hmpagent.store.LlmCallsDao.ModelTokens;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** llm_calls: the rows and the sums per tick, per session and lifetime, by model with cached tokens apart. */
class LlmCallsDaoTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-25T10:00:00Z");
    Store store;
    LlmCallsDao dao;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
        dao = new LlmCallsDao(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    static LlmCall call(Purpose purpose, String at, String model, int prompt, int cached, int completion) {
        return new LlmCall(purpose, Instant.parse(at), model, "https://api.example.com/v1", prompt, cached, completion,
                false, 600, Outcome.OK, "");
    }

    void fill() {
        // the last session: tick 1 before it, ticks 2 and 3 in it (started at 11:00:00)
        dao.insert(1, call(Purpose.MAIN, "2026-11-25T10:00:00.250Z", "big", 1_000, 0, 100));
        dao.insert(1, call(Purpose.COMPARISON, "2026-11-25T10:00:01Z", "mini", 400, 0, 20));
        dao.insert(2, call(Purpose.MAIN, "2026-11-25T11:00:00Z", "big", 2_000, 1_500, 50));
        dao.insert(2, call(Purpose.COMPARISON, "2026-11-25T11:00:00.500Z", "mini", 300, 256, 10));
        dao.insert(2, call(Purpose.TASK, "2026-11-25T11:00:03Z", "mini", 100, 0, 5));
        dao.insert(3, new LlmCall(Purpose.MAIN, Instant.parse("2026-11-25T11:05:00Z"), "big", "https://api.example.com/v1",
                0, 0, 0, false, 30_000, Outcome.ERROR, "timeout"));
    }

    @Test
    void a_row_reads_back_as_it_was_written_an_error_with_its_kind() {
        LlmCall failed = new LlmCall(Purpose.TASK, Instant.parse("2026-11-25T10:00:00.123Z"), "m", "http://h/v1", 0, 0, 0,
                false, 1_234, Outcome.ERROR, "http_429");
        LlmCall ok = new LlmCall(Purpose.COMPARISON, Instant.parse("2026-11-25T10:00:01Z"), "m", "http://h/v1", 10, 4, 2,
                true, 5, Outcome.INTERRUPTED, "");
        dao.insert(7, failed);
        dao.insert(7, ok);

        assertThat(dao.ofTick(7)).containsExactly(failed, ok);
        assertThat(store.query("SELECT at, error_kind FROM llm_calls ORDER BY id", rs -> rs.getString(1) + " "
                + rs.getString(2))).as("fixed-width times; no error kind is NULL")
                .containsExactly("2026-11-25T10:00:00.123Z http_429", "2026-11-25T10:00:01.000Z null");
    }

    @Test
    void a_ticks_tokens_by_model_count_every_purpose_with_cached_tokens_apart() {
        fill();
        assertThat(dao.byModelOfTick(2)).containsExactly(new ModelTokens("big", 1, 2_000, 1_500, 50),
                new ModelTokens("mini", 2, 400, 256, 15));
        assertThat(dao.byModelOfTick(9)).isEmpty();
    }

    @Test
    void a_sessions_tokens_are_those_of_the_calls_sent_since_its_start_whatever_their_fraction_of_a_second() {
        fill();
        assertThat(dao.byModelSince(Instant.parse("2026-11-25T11:00:00Z")))
                .as("11:00:00.500 is in the session that began at 11:00:00, though ISO_INSTANT's texts sort "
                        + "\"…00.500Z\" before \"…00Z\"")
                .containsExactly(new ModelTokens("big", 2, 2_000, 1_500, 50), new ModelTokens("mini", 2, 400, 256, 15));
        assertThat(dao.byModelSince(Instant.parse("2026-11-25T10:00:00.500Z")))
                .extracting(ModelTokens::model, ModelTokens::calls)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("big", 2L), org.assertj.core.groups.Tuple.tuple("mini", 3L));
        assertThat(dao.byModelSince(Instant.parse("2026-11-26T00:00:00Z"))).isEmpty();
    }

    @Test
    void lifetime_tokens_by_model_count_failed_calls_as_calls_with_no_tokens() {
        fill();
        assertThat(dao.byModel()).containsExactly(new ModelTokens("big", 3, 3_000, 1_500, 150),
                new ModelTokens("mini", 3, 800, 256, 35));
        assertThat(dao.byModel().get(0).total()).isEqualTo(3_150);
    }

    @Test
    void the_session_and_tick_queries_use_their_indexes() {
        assertThat(plan("SELECT model FROM llm_calls WHERE at >= '2026' GROUP BY model")).contains("idx_llm_calls_at");
        assertThat(plan("SELECT model FROM llm_calls WHERE tick_id = 3 GROUP BY model")).contains("idx_llm_calls_tick");
    }

    @Test
    void a_call_with_more_cached_than_prompt_tokens_or_an_error_without_a_kind_is_refused() {
        assertThatThrownBy(() -> call(Purpose.MAIN, "2026-11-25T10:00:00Z", "m", 10, 11, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LlmCall(Purpose.MAIN, Instant.EPOCH, "m", "e", 0, 0, 0, false, 0, Outcome.ERROR, ""))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LlmCall(Purpose.MAIN, Instant.EPOCH, "m", "e", 0, 0, 0, false, 0, Outcome.OK, "x"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private String plan(String sql) {
        return String.join("\n", store.query("EXPLAIN QUERY PLAN " + sql, rs -> rs.getString(4)));
    }
}
