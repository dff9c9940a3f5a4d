package dev.hmpagent.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hmpagent.config.FailoverAfter;
import dev.hmpagent.testing.MutableClock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

class FailoverLlmTest {
    private static final LlmRequest REQUEST = new LlmRequest(List.of(Message.user("hello")), 0.7, 100);
    private final MutableClock clock = MutableClock.at("2026-11-24T10:00:00Z");

    /** A server that is up or down; every call and probe is counted. */
    static final class Server implements LlmClient {
        final String name;
        boolean up = true;
        LlmException refusal;
        int calls;
        int probes;
        final List<LlmRequest> received = new ArrayList<>();
        final List<String> says = new ArrayList<>();
        final Deque<String> replies = new ArrayDeque<>();

        Server(String name) {
            this.name = name;
        }

        @Override
        public Completion complete(LlmRequest request, StreamListener listener, dev.hmpagent.llm.CallCancel cancel) {
            calls++;
            received.add(request);
            check();
            return new Completion(name + " answers", new Usage(10, 2, false), name, "stop", false);
        }

        @Override
        public void probe(CallCancel cancel) {
            probes++;
            check();
        }

        private void check() {
            if (refusal != null) throw refusal;
            if (!up) throw new RetryableLlmException("connect", "LLM endpoint http://" + name + " is not reachable",
                    null, null);
        }

        @Override
        public List<String> notices() {
            List<String> out = List.copyOf(says);
            says.clear();
            return out;
        }

        @Override
        public String endpoint() { return "http://" + name; }

        @Override
        public String model() { return name + "-model"; }
    }

    private final Server main = new Server("main");
    private final Server backup = new Server("backup");

    private FailoverLlm failover(FailoverAfter after, Server... servers) {
        List<FailoverLlm.Route> routes = new ArrayList<>();
        for (Server s : servers) routes.add(new FailoverLlm.Route(s.name, s));
        return new FailoverLlm(routes, after::reached, new Backoff(Duration.ofSeconds(15), Duration.ofMinutes(5)),
                clock.monotonic()::nanoTime);
    }

    private static LlmException failure(FailoverLlm llm) {
        return catchThrowableOfType(LlmException.class, () -> llm.complete(REQUEST, StreamListener.NONE));
    }

    @Test
    void after_n_failures_in_a_row_the_next_entry_answers_the_same_request_and_it_is_said_once() {
        FailoverLlm llm = failover(FailoverAfter.failures(3), main, backup);
        main.up = false;

        assertThat(failure(llm)).isInstanceOf(RetryableLlmException.class);
        assertThat(failure(llm)).isInstanceOf(RetryableLlmException.class);
        assertThat(llm.notices()).isEmpty();
        Completion third = llm.complete(REQUEST, StreamListener.NONE);

        assertThat(third.text()).isEqualTo("backup answers");
        assertThat(main.calls).isEqualTo(3);
        assertThat(backup.calls).isEqualTo(1);
        assertThat(llm.model()).isEqualTo("backup-model");
        assertThat(llm.endpoint()).isEqualTo("http://backup");
        assertThat(llm.notices()).containsExactly("main-model at http://main (main) failed 3 times in a row: thinking"
                + " with backup-model at http://backup (backup) instead until it answers again");
        llm.complete(REQUEST, StreamListener.NONE);
        assertThat(llm.notices()).as("said once").isEmpty();
    }

    @Test
    void a_request_another_llm_answers_is_retargeted_from_the_one_it_was_assembled_for_to_it() {
        FailoverLlm llm = failover(FailoverAfter.failures(1), main, backup).retargeting((request, was, now) ->
                new LlmRequest(List.of(Message.user(request.messages().get(0).content() + " | was " + was.model()
                        + ", now " + now.model())), request.temperature(), request.maxTokens()));
        main.up = false;

        llm.complete(REQUEST, StreamListener.NONE);
        llm.complete(REQUEST, StreamListener.NONE);

        assertThat(main.received).extracting(r -> r.messages().get(0).content()).containsExactly("hello");
        assertThat(backup.received).extracting(r -> r.messages().get(0).content())
                .as("the failed-over request is rewritten; the next, assembled with the backup active, is not")
                .containsExactly("hello | was main-model, now backup-model", "hello");
    }

    @Test
    void what_an_llm_says_of_itself_is_passed_on_named_by_its_id() {
        FailoverLlm llm = failover(FailoverAfter.failures(3), main, backup);
        backup.says.add("its context grows");

        assertThat(llm.notices()).containsExactly("backup: its context grows");
        assertThat(llm.notices()).isEmpty();
        main.says.add("alone");
        assertThat(failover(FailoverAfter.failures(3), main).notices()).as("the only LLM needs no name")
                .containsExactly("alone");
    }

    @Test
    void a_failure_between_successes_starts_the_count_again() {
        FailoverLlm llm = failover(FailoverAfter.failures(2), main, backup);
        main.up = false;
        failure(llm);
        main.up = true;
        llm.complete(REQUEST, StreamListener.NONE);
        main.up = false;
        failure(llm);

        assertThat(llm.model()).isEqualTo("main-model");
        assertThat(backup.calls).isZero();
    }

    @Test
    void given_as_seconds_it_fails_over_once_the_llm_has_failed_that_long() {
        FailoverLlm llm = failover(FailoverAfter.seconds(90), main, backup);
        main.up = false;
        failure(llm);
        clock.advance(Duration.ofSeconds(60));
        failure(llm);
        clock.advance(Duration.ofSeconds(30));

        assertThat(llm.complete(REQUEST, StreamListener.NONE).text()).isEqualTo("backup answers");
    }

    @Test
    void a_wall_clock_stepped_back_neither_holds_a_probe_back_nor_a_failover_for_the_size_of_the_step() {
        // before: failingSince and probeAt were wall times: with the wall stepped back 1 h, the main LLM was probed
        // again only an hour later, and "failing for 90 s" took an hour and a half
        FailoverLlm llm = failover(FailoverAfter.seconds(90), main, backup);
        main.up = false;
        failure(llm);
        clock.stepWall(Duration.ofHours(-1));
        clock.advance(Duration.ofSeconds(90));
        assertThat(llm.complete(REQUEST, StreamListener.NONE).text()).isEqualTo("backup answers");

        main.up = true;
        clock.stepWall(Duration.ofHours(-1));
        clock.advance(Duration.ofSeconds(15));
        llm.complete(REQUEST, StreamListener.NONE);
        assertThat(main.probes).as("probed at its 15 s, whatever the wall says").isEqualTo(1);
        assertThat(llm.model()).isEqualTo("main-model");
    }

    @Test
    void the_main_llm_is_probed_cheaply_on_a_back_off_schedule_and_used_again_when_it_answers() {
        FailoverLlm llm = failover(FailoverAfter.failures(1), main, backup);
        main.up = false;
        llm.complete(REQUEST, StreamListener.NONE);
        llm.notices();

        clock.advance(Duration.ofSeconds(10));
        llm.complete(REQUEST, StreamListener.NONE);
        assertThat(main.probes).as("not due before 15 s").isZero();
        clock.advance(Duration.ofSeconds(5));
        llm.complete(REQUEST, StreamListener.NONE);
        assertThat(main.probes).isEqualTo(1);
        clock.advance(Duration.ofSeconds(20));
        llm.complete(REQUEST, StreamListener.NONE);
        assertThat(main.probes).as("the next probe waits 30 s").isEqualTo(1);

        main.up = true;
        clock.advance(Duration.ofSeconds(10));
        Completion back = llm.complete(REQUEST, StreamListener.NONE);

        assertThat(main.probes).isEqualTo(2);
        assertThat(back.text()).isEqualTo("main answers");
        assertThat(main.calls).as("one full prompt failed; probes are not calls").isEqualTo(2);
        assertThat(llm.notices()).containsExactly("main-model at http://main (main) answers again: thinking with it"
                + " instead of backup-model at http://backup (backup)");
    }

    @Test
    void with_no_llm_left_it_is_an_outage_said_once_and_calls_only_probe_until_one_answers() {
        FailoverLlm llm = failover(FailoverAfter.failures(2), main, backup);
        main.up = false;
        backup.up = false;
        failure(llm);
        failure(llm);   // main given up; backup fails its first call
        failure(llm);   // backup given up: outage
        assertThat(llm.inOutage()).isTrue();
        List<String> said = llm.notices();
        assertThat(said).hasSize(2);
        assertThat(said.get(1)).startsWith("No LLM answers: backup-model at http://backup (backup) failed 2 times in a row"
                + " and no other LLM is available. The agent goes on without thinking");
        int mainCalls = main.calls;
        int backupCalls = backup.calls;

        for (int i = 0; i < 5; i++) {
            LlmException e = failure(llm);
            assertThat(e.retryable()).isTrue();
            assertThat(e.getMessage()).startsWith("no LLM answers (main: LLM endpoint http://main is not reachable;");
        }
        assertThat(main.calls).as("no full prompt while no LLM answers").isEqualTo(mainCalls);
        assertThat(backup.calls).isEqualTo(backupCalls);
        assertThat(main.probes).isEqualTo(5);
        assertThat(llm.notices()).as("told once, not every tick").isEmpty();

        backup.up = true;
        Completion c = llm.complete(REQUEST, StreamListener.NONE);
        assertThat(c.text()).isEqualTo("backup answers");
        assertThat(llm.inOutage()).isFalse();
        assertThat(llm.notices()).containsExactly("backup-model at http://backup (backup) answers again: the agent"
                + " thinks again and reads the messages that queued, in order");
    }

    @Test
    void an_exhausted_quota_hands_over_at_once_and_with_no_other_llm_reaches_the_caller() {
        FailoverLlm llm = failover(FailoverAfter.failures(3), main, backup);
        main.refusal = new FatalLlmException(LlmException.INSUFFICIENT_QUOTA, "quota gone", null);

        assertThat(llm.complete(REQUEST, StreamListener.NONE).text()).isEqualTo("backup answers");
        assertThat(llm.notices()).containsExactly("main-model at http://main (main) is out because its quota is"
                + " exhausted: thinking with backup-model at http://backup (backup) instead");

        FailoverLlm alone = failover(FailoverAfter.failures(3), main);
        LlmException e = failure(alone);
        assertThat(e.quotaExhausted()).isTrue();
        assertThat(failure(alone).quotaExhausted()).as("it stays out").isTrue();
        assertThat(main.probes).isZero();
        assertThat(alone.notices()).as("the refusal itself is the news: no outage line promising a retry").isEmpty();
    }

    @Test
    void when_every_llm_is_out_for_good_it_says_so_once_and_promises_no_retry() {
        FailoverLlm llm = failover(FailoverAfter.failures(3), main, backup);
        main.refusal = new FatalLlmException(LlmException.INSUFFICIENT_QUOTA, "quota gone", null);
        backup.refusal = new FatalLlmException(LlmException.INSUFFICIENT_QUOTA, "credit gone", null);

        assertThat(failure(llm).quotaExhausted()).isTrue();

        assertThat(llm.notices()).containsExactly("main-model at http://main (main) is out because its quota is"
                + " exhausted: thinking with backup-model at http://backup (backup) instead",
                "No LLM can be used: main-model at http://main (main) is out because its quota is exhausted;"
                        + " backup-model at http://backup (backup) is out because its quota is exhausted");
        assertThat(failure(llm).quotaExhausted()).as("still out, said no more").isTrue();
        assertThat(llm.notices()).isEmpty();
    }

    @Test
    void other_refusals_are_not_failovers() {
        FailoverLlm llm = failover(FailoverAfter.failures(1), main, backup);
        main.refusal = new FatalLlmException("http_400", "bad request", null);

        assertThat(failure(llm).kind()).isEqualTo("http_400");
        assertThat(backup.calls).isZero();
        assertThat(llm.notices()).isEmpty();
    }

    @Test
    void the_llms_own_choice_is_followed_from_the_next_call_and_failover_goes_on_from_there() {
        java.util.concurrent.atomic.AtomicReference<String> chosen = new java.util.concurrent.atomic.AtomicReference<>();
        FailoverLlm llm = failover(FailoverAfter.failures(1), main, backup)
                .following(() -> java.util.Optional.ofNullable(chosen.get()));
        assertThat(llm.complete(REQUEST, StreamListener.NONE).text()).isEqualTo("main answers");

        chosen.set("backup");
        assertThat(llm.complete(REQUEST, StreamListener.NONE).text()).isEqualTo("backup answers");
        assertThat(llm.notices()).containsExactly("thinking with backup-model at http://backup (backup), as the LLM"
                + " chose (llm_select)");
        backup.up = false;
        assertThat(llm.complete(REQUEST, StreamListener.NONE).text()).as("the chosen one fails: main takes over")
                .isEqualTo("main answers");

        chosen.set("nowhere");
        llm.complete(REQUEST, StreamListener.NONE);
        assertThat(llm.activeId()).as("an id no route has changes nothing").isEqualTo("main");
    }
}
