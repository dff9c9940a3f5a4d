package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.cli.Wiring;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class TickLoopTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();

    @Test
    void a_drain_stop_answers_what_is_queued_then_ends() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("one", "user", 0, null);
            llm.reply("first\n# Commands:\n{\"type\": \"diary_entry\", \"args\": {\"text\": \"x\"}}").reply("second");
            TickLoop loop = new TickLoop(Wiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    Duration.ofHours(1), Duration.ZERO, () -> true, sink);
            loop.stop(true);
            loop.run();
            assertThat(llm.requests).hasSize(2);
            assertThat(new AgentLogDao(store).lastTickId()).isEqualTo(2);
        }
    }

    @Test
    void input_that_arrives_during_an_idle_iteration_just_before_the_drain_is_still_answered() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            llm.reply("answered");
            TickLoop[] self = new TickLoop[1];
            AtomicInteger calls = new AtomicInteger();
            TickLoop loop = new TickLoop(Wiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    Duration.ofHours(1), Duration.ZERO, () -> {
                        if (calls.getAndIncrement() > 0) return true;
                        // this iteration finds nothing to do; meanwhile the last piped line is stored and input ends
                        new NotesDao(store).add("last line", "user", 0, null);
                        self[0].stop(true);
                        return false;
                    }, sink);
            self[0] = loop;

            assertThat(loop.run()).isEqualTo(TickLoop.End.STOPPED);

            assertThat(llm.requests).hasSize(1);
            assertThat(new NotesDao(store).unreadCount()).isZero();
        }
    }

    @Test
    void draining_while_the_llm_is_down_ends_at_the_give_up_time_with_its_own_reason() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("anyone?", "user", 0, null);
            llm.fail(new dev.hmpagent.llm.RetryableLlmException("connect", "not reachable", null, null));
            TickLoop loop = new TickLoop(Wiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    Duration.ofHours(1), Duration.ZERO, () -> true, sink);
            loop.stop(true);
            assertThat(loop.run()).isEqualTo(TickLoop.End.LLM_GAVE_UP);
            assertThat(llm.requests).hasSize(1);
        }
    }

    @Test
    void failed_calls_do_not_use_up_the_drain_ticks_so_a_long_give_up_time_is_not_cut_short() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("anyone?", "user", 0, null);
            for (int i = 0; i < TickLoop.MAX_DRAIN_TICKS + 5; i++) {
                llm.fail(new dev.hmpagent.llm.RetryableLlmException("http_429", "rate limited", Duration.ZERO, null));
            }
            llm.reply("finally");
            clock.advanceOnEveryReading(Duration.ofSeconds(1));   // each back-off of 1 s has passed by the next look
            TickLoop loop = new TickLoop(Wiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    Duration.ofHours(1), Duration.ofHours(1), () -> true, sink);
            loop.stop(true);
            assertThat(loop.run()).isEqualTo(TickLoop.End.STOPPED);
            assertThat(llm.requests).hasSize(TickLoop.MAX_DRAIN_TICKS + 6);
            assertThat(new NotesDao(store).unreadCount()).isZero();
        }
    }

    @Test
    void a_server_that_always_says_retry_now_is_not_hammered_and_the_drain_gives_up_on_time() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("anyone?", "user", 0, null);
            for (int i = 0; i < 1_000; i++) {
                llm.fail(new dev.hmpagent.llm.RetryableLlmException("http_429", "rate limited", Duration.ZERO, null));
            }
            clock.advanceOnEveryReading(Duration.ofMillis(100));
            TickLoop loop = new TickLoop(Wiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    Duration.ofHours(1), Duration.ofSeconds(30), () -> true, sink);
            loop.stop(true);
            assertThat(loop.run()).isEqualTo(TickLoop.End.LLM_GAVE_UP);
            assertThat(llm.requests).as("at most one call a second for 30 s").hasSizeBetween(2, 31);
        }
    }

    @Test
    void draining_after_the_llm_refused_the_key_ends_at_once_with_its_own_reason() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("anyone?", "user", 0, null);
            llm.fail(new dev.hmpagent.llm.FatalLlmException("http_401", "rejected the API key", null));
            TickLoop loop = new TickLoop(Wiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    Duration.ofHours(1), Duration.ofHours(1), () -> true, sink);
            loop.stop(true);
            assertThat(loop.run()).isEqualTo(TickLoop.End.LLM_REJECTED);
        }
    }

    @Test
    void a_damaged_file_found_by_the_lock_check_ends_the_loop_as_a_database_failure() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            TickLoop loop = new TickLoop(Wiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    Duration.ofHours(1), Duration.ZERO, () -> {
                        throw new dev.hmpagent.store.StoreException(dev.hmpagent.store.StoreException.Kind.CORRUPT,
                                "agent.db is damaged (database disk image is malformed): run `agent check`");
                    }, sink);
            assertThat(loop.run()).isEqualTo(TickLoop.End.DATABASE);
            assertThat(sink.of(AgentEvent.Problem.class)).singleElement()
                    .satisfies(p -> assertThat(p.text()).contains("agent check"));
        }
    }

    @Test
    void a_plain_stop_ends_without_ticking_again() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("one", "user", 0, null);
            TickLoop loop = new TickLoop(Wiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    Duration.ofHours(1), Duration.ZERO, () -> true, sink);
            loop.stop(false);
            loop.run();
            assertThat(llm.requests).isEmpty();
        }
    }

    @Test
    void once_told_to_stop_at_once_a_later_drain_request_does_not_bring_draining_back() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("one", "user", 0, null);
            TickLoop loop = new TickLoop(Wiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    Duration.ofHours(1), Duration.ZERO, () -> true, sink);
            loop.stop(false);
            loop.stop(true);
            loop.run();
            assertThat(llm.requests).isEmpty();
        }
    }

    @Test
    void a_loop_that_may_not_tick_calls_nothing() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("one", "user", 0, null);
            TickLoop[] self = new TickLoop[1];
            TickLoop loop = new TickLoop(Wiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    Duration.ofNanos(1), Duration.ZERO, () -> {
                        self[0].stop(true);
                        return false;
                    }, sink);
            self[0] = loop;
            loop.run();
            assertThat(llm.requests).isEmpty();
        }
    }

    @Test
    void a_drain_ends_after_a_bounded_number_of_ticks_when_the_model_never_idles() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("go", "user", 0, null);
            for (int i = 0; i < TickLoop.MAX_DRAIN_TICKS + 5; i++) {
                llm.reply("tick " + i + "\n# Commands:\n{\"type\": \"help\"}");
            }
            TickLoop loop = new TickLoop(Wiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    Duration.ofHours(1), Duration.ZERO, () -> true, sink);
            loop.stop(true);
            loop.run();
            assertThat(llm.requests).hasSize(TickLoop.MAX_DRAIN_TICKS);
        }
    }

    @Test
    void an_error_escaping_the_cycle_is_shown_once_while_it_repeats_and_the_loop_goes_on() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            AtomicInteger calls = new AtomicInteger();
            TickLoop[] holder = new TickLoop[1];
            TickLoop loop = new TickLoop(Wiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    Duration.ofNanos(1), Duration.ZERO, () -> {
                        if (calls.incrementAndGet() >= 5) holder[0].stop(false);
                        throw new IllegalStateException("database is busy");
                    }, sink);
            holder[0] = loop;
            loop.run();
            assertThat(calls.get()).isEqualTo(5);
            assertThat(sink.of(AgentEvent.Problem.class)).singleElement()
                    .satisfies(p -> assertThat(p.text()).contains("database is busy"));
        }
    }

    @Test
    void wake_from_another_thread_makes_the_loop_tick_without_waiting_for_the_poll() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock);
             Store repl = Store.open(dir.resolve("agent.db"), clock)) {
            llm.reply("hello back");
            java.util.concurrent.CountDownLatch answered = new java.util.concurrent.CountDownLatch(1);
            RecordingSink watching = new RecordingSink() {
                @Override
                public void emit(AgentEvent event) {
                    super.emit(event);
                    if (event instanceof AgentEvent.Thought) answered.countDown();
                }
            };
            TickLoop loop = new TickLoop(Wiring.cycle(AgentConfig.defaults(), store, llm, watching, clock),
                    Duration.ofHours(1), Duration.ZERO, () -> true, watching);
            loop.start();
            new NotesDao(repl).add("hi", "user", 0, null);
            loop.wake();
            answered.await();
            loop.stop(false);
            loop.awaitStopped();
            assertThat(llm.requests).hasSize(1);
        }
    }
}
