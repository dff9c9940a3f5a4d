package dev.hmpagent.cycle;

import dev.hmpagent.runtime.TestWiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.CycleSection;
import dev.hmpagent.cycle.FixedRatePacer.Overrun;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.TickRecord;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.FakeTime;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
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
            llm.reply("first\n# Commands:\n{\"type\": \"help\", \"args\": {\"type\": \"diary_entry\"}}").reply("second");
            TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    new WakeOrPollPacer(Duration.ofHours(1)), TimeSource.system(), Duration.ZERO, () -> true, sink);
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
            TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    new WakeOrPollPacer(Duration.ofHours(1)), TimeSource.system(), Duration.ZERO, () -> {
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
            TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    new WakeOrPollPacer(Duration.ofHours(1)), TimeSource.system(), Duration.ZERO, () -> true, sink);
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
            TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    new WakeOrPollPacer(Duration.ofHours(1)), TimeSource.system(), Duration.ofDays(1), () -> true,
                    sink);
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
            TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    new WakeOrPollPacer(Duration.ofHours(1)), TimeSource.system(), Duration.ofSeconds(30), () -> true,
                    sink);
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
            TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    new WakeOrPollPacer(Duration.ofHours(1)), TimeSource.system(), Duration.ofHours(1), () -> true,
                    sink);
            loop.stop(true);
            assertThat(loop.run()).isEqualTo(TickLoop.End.LLM_REJECTED);
        }
    }

    @Test
    void a_damaged_file_found_by_the_lock_check_ends_the_loop_as_a_database_failure() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    new WakeOrPollPacer(Duration.ofHours(1)), TimeSource.system(), Duration.ZERO, () -> {
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
            TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    new WakeOrPollPacer(Duration.ofHours(1)), TimeSource.system(), Duration.ZERO, () -> true, sink);
            loop.stop(false);
            loop.run();
            assertThat(llm.requests).isEmpty();
        }
    }

    @Test
    void once_told_to_stop_at_once_a_later_drain_request_does_not_bring_draining_back() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("one", "user", 0, null);
            TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    new WakeOrPollPacer(Duration.ofHours(1)), TimeSource.system(), Duration.ZERO, () -> true, sink);
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
            TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    new WakeOrPollPacer(Duration.ofNanos(1)), TimeSource.system(), Duration.ZERO, () -> {
                        self[0].stop(true);
                        return false;
                    }, sink);
            self[0] = loop;
            loop.run();
            assertThat(llm.requests).isEmpty();
        }
    }

    @Test
    void a_drain_of_a_model_that_never_idles_ends_at_the_safety_task_cap_not_before() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("go", "user", 0, null);
            for (int i = 0; i < 60; i++) {
                // a different search every tick: progress as far as the safety monitor can tell, so only the cap stops it
                llm.reply("tick " + i + "\n# Commands:\n{\"type\": \"diary_search\", \"args\": {\"query\": \"q" + i + "\"}}");
            }
            // the task cap (safety.tick_cap) set to 50, below the 60 scripted replies
            TickLoop loop = new TickLoop(TestWiring.cycle(AntiStagnationTest.config("safety.tick_cap", "50"), store, llm,
                    sink, clock), new WakeOrPollPacer(Duration.ofHours(1)), TimeSource.system(), Duration.ZERO, () -> true,
                    sink);
            loop.stop(true);
            loop.run();
            assertThat(llm.requests).as("every call of the task up to the cap; 20 before issue 23").hasSize(50);
            assertThat(new dev.hmpagent.safety.SafetyControl(store).current().label()).startsWith("SAFETY_LOCKOUT");
        }
    }

    @Test
    void an_error_escaping_the_cycle_is_shown_once_while_it_repeats_and_the_loop_goes_on() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            AtomicInteger calls = new AtomicInteger();
            TickLoop[] holder = new TickLoop[1];
            TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    new WakeOrPollPacer(Duration.ofNanos(1)), TimeSource.system(), Duration.ZERO, () -> {
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
            TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, llm, watching, clock),
                    new WakeOrPollPacer(Duration.ofHours(1)), TimeSource.system(), Duration.ZERO, () -> true, watching);
            loop.start();
            new NotesDao(repl).add("hi", "user", 0, null);
            loop.wake();
            answered.await();
            loop.stop(false);
            loop.awaitStopped();
            assertThat(llm.requests).hasSize(1);
        }
    }

    // ---- pacing, on a fake clock: nothing here sleeps ----

    final FakeTime time = new FakeTime(clock);
    /** When each iteration began, in fake nanoseconds since the start. */
    final List<Long> began = new ArrayList<>();
    final BooleanSupplier recordingBegins = () -> began.add(time.nanoTime());

    static long ms(long millis) {
        return millis * 1_000_000;
    }

    static List<Long> ms(long... millis) {
        return Arrays.stream(millis).map(TickLoopTest::ms).boxed().toList();
    }

    TickLoop paced(Store store, AgentConfig config, LlmClient client, Pacer pacer, BooleanSupplier mayTick) {
        return new TickLoop(TestWiring.cycle(config, store, client, sink, clock), pacer, time, Duration.ZERO, mayTick, sink);
    }

    /** The fake LLM, its calls taking the given times in turn (then none): a slow model, on the fake clock. */
    LlmClient taking(Duration... takes) {
        Deque<Duration> left = new ArrayDeque<>(List.of(takes));
        return new LlmClient() {
            @Override
            public Completion complete(LlmRequest request, StreamListener listener, dev.hmpagent.llm.CallCancel cancel) {
                if (!left.isEmpty()) time.advance(left.poll());
                return llm.complete(request, listener);
            }

            @Override
            public String endpoint() { return llm.endpoint(); }

            @Override
            public String model() { return llm.model(); }
        };
    }

    static AgentConfig autonomous() {
        AgentConfig d = AgentConfig.defaults();
        return new AgentConfig(d.agent(), d.llm(), new CycleSection(true, d.cycle().historyK(), d.cycle().pollInterval()),
                d.context(), d.run());
    }

    @Test
    void a_fixed_rate_loop_runs_frame_n_at_start_plus_n_periods_without_drift_while_each_tick_takes_a_third()
            throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            FixedRatePacer pacer = new FixedRatePacer(50, Overrun.SKIP, 10);
            long period = pacer.period().toNanos();
            TickLoop loop = paced(store, AgentConfig.defaults(), llm, pacer, () -> {
                began.add(time.nanoTime());
                time.advance(Duration.ofNanos(period * 3 / 10));
                return true;
            });
            time.at(Duration.ofNanos(10_000 * period - 1), () -> loop.stop(false));

            assertThat(loop.run()).isEqualTo(TickLoop.End.STOPPED);

            assertThat(began).hasSize(10_000);
            for (int n = 0; n < began.size(); n++) {
                if (began.get(n) != n * period) throw new AssertionError("frame " + n + " began at " + began.get(n));
            }
            assertThat(sink.of(AgentEvent.Info.class)).as("no overrun").isEmpty();
        }
    }

    @Test
    void a_tick_that_overruns_skips_the_frames_it_missed_and_says_so_in_one_line() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("hello", "user", 0, null);
            llm.reply("hello back");
            TickLoop loop = paced(store, AgentConfig.defaults(), taking(Duration.ofMillis(3_400)),
                    new FixedRatePacer(2, Overrun.SKIP, 10), recordingBegins);
            time.at(Duration.ofMillis(4_600), () -> loop.stop(false));

            loop.run();

            assertThat(began).isEqualTo(ms(0, 3_500, 4_000, 4_500));
            assertThat(sink.of(AgentEvent.Info.class)).extracting(AgentEvent.Info::text)
                    .containsExactly("tick 1 took 3.4 s: skipped 6 frames at 2 Hz");
            assertThat(sink.of(AgentEvent.Info.class)).extracting(AgentEvent.Info::detail)
                    .as("a detail: agent run --verbose shows it").containsExactly(true);
            LoopStats stats = loop.stats();
            assertThat(stats.framesSkipped()).isEqualTo(6);
            assertThat(stats.framesCaughtUp()).isZero();
            assertThat(stats.noOpTicks()).isEqualTo(3);
            assertThat(stats.hz()).isEqualTo(2);
            assertThat(stats.lastTickAt()).contains(java.time.Instant.parse("2026-11-21T10:00:00Z"));
            assertThat(stats.lastTickTook()).isEqualTo(Duration.ofMillis(3_400));
        }
    }

    @Test
    void catch_up_runs_the_missed_frames_back_to_back_up_to_its_cap_and_skips_the_rest() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("hello", "user", 0, null);
            llm.reply("hello back");
            TickLoop loop = paced(store, AgentConfig.defaults(), taking(Duration.ofMillis(3_400)),
                    new FixedRatePacer(2, Overrun.CATCH_UP, 4), recordingBegins);
            time.at(Duration.ofMillis(4_100), () -> loop.stop(false));

            loop.run();

            assertThat(began).isEqualTo(ms(0, 3_400, 3_400, 3_400, 3_400, 3_500, 4_000));
            assertThat(sink.of(AgentEvent.Info.class)).extracting(AgentEvent.Info::text)
                    .containsExactly("tick 1 took 3.4 s: catching up 4 frames, skipped 2 beyond run.max_catch_up at 2 Hz");
            assertThat(loop.stats().framesCaughtUp()).isEqualTo(4);
            assertThat(loop.stats().framesSkipped()).isEqualTo(2);
            assertThat(llm.requests).hasSize(1);
        }
    }

    @Test
    void catching_up_in_autonomous_mode_calls_the_llm_once_per_new_observation_not_once_per_frame() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            llm.reply("thinking on my own").reply("answering the message").reply("thinking on my own again");
            TickLoop loop = paced(store, autonomous(), taking(Duration.ofMillis(3_400)),
                    new FixedRatePacer(2, Overrun.CATCH_UP, 10), recordingBegins);
            time.at(Duration.ofMillis(2_000), () -> new NotesDao(store).add("a message", "user", 0, null));
            time.at(Duration.ofMillis(3_600), () -> loop.stop(false));

            loop.run();

            assertThat(began).as("frame 0, six caught up, frame 7").isEqualTo(ms(0, 3_400, 3_400, 3_400, 3_400, 3_400,
                    3_400, 3_500));
            assertThat(llm.requests).hasSize(3);
            assertThat(new AgentLogDao(store).latest(10)).extracting(TickRecord::wakeReason)
                    .containsExactly("autonomous", "new message", "autonomous");
            assertThat(loop.stats().framesCaughtUp()).isEqualTo(6);
            assertThat(loop.stats().noOpTicks()).isEqualTo(5);
        }
    }

    @Test
    void wake_does_not_bring_a_frame_forward_but_stop_ends_the_wait_at_once() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            llm.reply("hi");
            TickLoop loop = paced(store, AgentConfig.defaults(), llm, new FixedRatePacer(1, Overrun.SKIP, 10),
                    recordingBegins);
            time.at(Duration.ofMillis(300), () -> {
                new NotesDao(store).add("hello", "user", 0, null);
                loop.wake();
            });
            time.at(Duration.ofMillis(1_400), () -> loop.stop(false));

            assertThat(loop.run()).isEqualTo(TickLoop.End.STOPPED);

            assertThat(began).as("the message waits for frame 1").isEqualTo(ms(0, 1_000));
            assertThat(llm.requests).hasSize(1);
            assertThat(time.nanoTime()).as("not at frame 2").isEqualTo(ms(1_400));
        }
    }

    @Test
    void end_also_cuts_a_frame_wait_short() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            TickLoop loop = paced(store, AgentConfig.defaults(), llm, new FixedRatePacer(0.1, Overrun.SKIP, 10),
                    recordingBegins);
            time.at(Duration.ofMillis(1_400), () -> loop.end(TickLoop.End.LOST_FILE));

            assertThat(loop.run()).isEqualTo(TickLoop.End.LOST_FILE);

            assertThat(time.nanoTime()).isEqualTo(ms(1_400));
        }
    }

    @Test
    void idle_frames_are_counted_and_nothing_is_written_for_them() throws Exception {
        Path db = dir.resolve("agent.db");
        try (Store store = Store.open(db, clock)) {
            TickLoop loop = paced(store, AgentConfig.defaults(), llm, new FixedRatePacer(10, Overrun.SKIP, 10),
                    recordingBegins);
            time.at(Duration.ofMillis(4_950), () -> loop.stop(false));
            long dbBytes = Files.size(db);
            long walBytes = Files.size(dir.resolve("agent.db-wal"));

            loop.run();

            assertThat(began).hasSize(50);
            assertThat(loop.stats().noOpTicks()).isEqualTo(50);
            assertThat(loop.stats().lastTickAt()).isEmpty();
            assertThat(llm.requests).isEmpty();
            assertThat(new AgentLogDao(store).latest(10)).isEmpty();
            assertThat(Files.size(db)).isEqualTo(dbBytes);
            assertThat(Files.size(dir.resolve("agent.db-wal"))).isEqualTo(walBytes);
        }
    }

    @Test
    void wake_or_poll_ticks_at_each_poll_while_idle_and_at_once_when_woken() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            TickLoop loop = paced(store, AgentConfig.defaults(), llm, new WakeOrPollPacer(Duration.ofMillis(500)),
                    recordingBegins);
            time.at(Duration.ofMillis(1_200), loop::wake);
            time.at(Duration.ofMillis(1_800), () -> loop.stop(false));

            loop.run();

            assertThat(began).isEqualTo(ms(0, 500, 1_000, 1_200, 1_700));
            assertThat(loop.stats().hz()).isZero();
            assertThat(loop.stats().noOpTicks()).isEqualTo(5);
        }
    }

    // ---- back-off counts from the failure, not from the tick's start (issue 20, item 2) ----

    /** When each call reached the fake LLM, in fake nanoseconds since the start. */
    final List<Long> asked = new ArrayList<>();

    /** The fake LLM, each call taking {@code take} on the fake clock before it answers or fails: a slow server. */
    LlmClient answeringAfter(Duration take) {
        return new LlmClient() {
            @Override
            public Completion complete(LlmRequest request, StreamListener listener, dev.hmpagent.llm.CallCancel cancel) {
                asked.add(time.nanoTime());
                time.advance(take);
                return llm.complete(request, listener);
            }

            @Override
            public String endpoint() { return llm.endpoint(); }

            @Override
            public String model() { return llm.model(); }
        };
    }

    static dev.hmpagent.llm.RetryableLlmException unavailable(Duration retryAfter) {
        return new dev.hmpagent.llm.RetryableLlmException("http_503", "LLM endpoint http://fake/v1 answered 503",
                retryAfter, null);
    }

    @Test
    void a_server_that_takes_3_s_to_fail_gets_its_retries_a_full_back_off_after_each_failure() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("hello", "user", 0, null);
            llm.fail(unavailable(null)).fail(unavailable(null)).fail(unavailable(null)).reply("hello back");
            TickLoop loop = paced(store, AgentConfig.defaults(), answeringAfter(Duration.ofSeconds(3)),
                    new FixedRatePacer(10, Overrun.SKIP, 10), () -> true);
            time.at(Duration.ofMillis(20_000), () -> loop.stop(false));

            loop.run();

            assertThat(asked).as("failures at 3, 7 and 12 s; back-off 1, 2 and 4 s from each")
                    .isEqualTo(ms(0, 4_000, 9_000, 16_000));
            java.time.Instant t0 = java.time.Instant.parse("2026-11-21T10:00:00Z");
            assertThat(sink.of(AgentEvent.Retrying.class)).extracting(AgentEvent.Retrying::nextTry)
                    .containsExactly(t0.plusSeconds(4), t0.plusSeconds(9), t0.plusSeconds(16));
            assertThat(sink.of(AgentEvent.Retrying.class)).extracting(AgentEvent.Retrying::text)
                    .allSatisfy(t -> assertThat(t).contains("answered 503"))
                    .satisfies(t -> assertThat(t.get(0)).contains("retrying in 1 s"))
                    .satisfies(t -> assertThat(t.get(1)).contains("retrying in 2 s"))
                    .satisfies(t -> assertThat(t.get(2)).contains("retrying in 4 s"));
        }
    }

    @Test
    void a_fast_failure_with_retry_after_2_is_retried_2_s_after_it_arrived_never_sooner() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("hello", "user", 0, null);
            llm.fail(unavailable(Duration.ofSeconds(2))).reply("hello back");
            TickLoop loop = paced(store, AgentConfig.defaults(), answeringAfter(Duration.ofMillis(300)),
                    new FixedRatePacer(10, Overrun.SKIP, 10), () -> true);
            time.at(Duration.ofMillis(5_000), () -> loop.stop(false));

            loop.run();

            assertThat(asked).as("the 503 arrived at 0.3 s").isEqualTo(ms(0, 2_300));
        }
    }

    @Test
    void draining_through_a_slow_outage_waits_the_back_off_after_each_failure() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("hello", "user", 0, null);
            llm.fail(unavailable(null)).fail(unavailable(null)).reply("hello back");
            AtomicInteger iterations = new AtomicInteger();
            TickLoop[] self = new TickLoop[1];
            TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, answeringAfter(Duration.ofSeconds(3)),
                    sink, clock), new WakeOrPollPacer(Duration.ofHours(1)), time, Duration.ofHours(1), () -> {
                        // a wait that does not wait spins here; on the fake clock it would never end
                        if (iterations.incrementAndGet() > 100) self[0].end(TickLoop.End.FAILED);
                        return true;
                    }, sink);
            self[0] = loop;
            loop.stop(true);   // a piped run: answer what is queued, waiting out the back-off, then end

            assertThat(loop.run()).isEqualTo(TickLoop.End.STOPPED);

            assertThat(asked).isEqualTo(ms(0, 4_000, 9_000));
            assertThat(iterations.get()).as("one iteration per try, then the idle one that ends the drain")
                    .isLessThanOrEqualTo(5);
        }
    }

    @Test
    void stop_from_another_thread_ends_a_long_frame_wait_on_the_real_clock_at_once() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            CountDownLatch firstFrame = new CountDownLatch(1);
            TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock),
                    new FixedRatePacer(0.1, Overrun.SKIP, 10), TimeSource.system(), Duration.ZERO, () -> {
                        firstFrame.countDown();
                        return true;
                    }, sink);
            loop.start();
            firstFrame.await();
            long asked = System.nanoTime();

            loop.stop(false);

            assertThat(loop.awaitStopped()).isEqualTo(TickLoop.End.STOPPED);
            assertThat(System.nanoTime() - asked).as("well before the 10 s frame").isLessThan(TimeUnit.SECONDS.toNanos(5));
        }
    }
}
