package dev.hmpagent.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.cycle.CallRows;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.store.LlmCall.Outcome;
import dev.hmpagent.store.LlmCall.Purpose;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeteredLlmTest {
    final MutableClock clock = MutableClock.at("2026-11-25T10:00:00Z");
    final FakeLlmClient fake = new FakeLlmClient();
    final MeteredLlm<LlmCall> metered = new MeteredLlm<>(fake, clock, CallRows.as(Purpose.TASK));
    final LlmRequest request = new LlmRequest(List.of(Message.user("hi")), 0.0, 10);

    @Test
    void a_call_is_noted_with_its_start_duration_usage_and_the_model_that_answered_then_forgotten_once_taken() {
        fake.replyAfter(() -> clock.advance(Duration.ofMillis(640)), "hello");
        metered.complete(request, StreamListener.NONE);

        List<LlmCall> calls = metered.take();
        assertThat(calls).singleElement().satisfies(c -> {
            assertThat(c.at()).isEqualTo(Instant.parse("2026-11-25T10:00:00Z"));
            assertThat(c.durationMs()).isEqualTo(640);
            assertThat(c.model()).isEqualTo("fake-model");
            assertThat(c.endpoint()).isEqualTo("http://fake/v1");
            assertThat(c.outcome()).isEqualTo(Outcome.OK);
            assertThat(c.estimated()).isTrue();
        });
        assertThat(metered.take()).isEmpty();
    }

    @Test
    void cached_tokens_come_from_the_usage() {
        fake.reply("hello", new Usage(2_000, 30, false, 1_536), "gpt-4.1-mini-2025-04-14");
        metered.complete(request, StreamListener.NONE);
        assertThat(metered.take()).singleElement().satisfies(c -> {
            assertThat(c.model()).isEqualTo("gpt-4.1-mini-2025-04-14");
            assertThat(c.promptTokens()).isEqualTo(2_000);
            assertThat(c.cachedTokens()).isEqualTo(1_536);
            assertThat(c.completionTokens()).isEqualTo(30);
            assertThat(c.estimated()).isFalse();
        });
    }

    @Test
    void a_failed_call_is_noted_as_an_error_of_the_model_asked_and_the_exception_goes_on() {
        fake.fail(new RetryableLlmException("http_429", "slow down", null, null));
        assertThatThrownBy(() -> metered.complete(request, StreamListener.NONE)).isInstanceOf(RetryableLlmException.class);
        assertThat(metered.take()).singleElement().satisfies(c -> {
            assertThat(c.outcome()).isEqualTo(Outcome.ERROR);
            assertThat(c.errorKind()).isEqualTo("http_429");
            assertThat(c.model()).isEqualTo("fake-model");
            assertThat(c.promptTokens() + c.completionTokens()).isZero();
        });
    }

    @Test
    void an_interrupted_reply_is_noted_as_interrupted() {
        fake.interruptedReply("half");
        metered.complete(request, StreamListener.NONE);
        assertThat(metered.take()).extracting(LlmCall::outcome).containsExactly(Outcome.INTERRUPTED);
    }

    @Test
    void a_probe_is_not_a_call_of_the_agents() {
        fake.reply("pong");
        metered.probe();
        assertThat(fake.probes).isEqualTo(1);
        assertThat(fake.requests).isEmpty();
        assertThat(metered.take()).isEmpty();
    }
}
