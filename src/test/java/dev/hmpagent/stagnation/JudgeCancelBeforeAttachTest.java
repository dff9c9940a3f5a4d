package dev.hmpagent.stagnation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.openai.OpenAiClient;
import dev.hmpagent.llm.openai.OpenAiSettings;
import dev.hmpagent.stagnation.Comparison.Verdict;
import dev.hmpagent.testing.FakeOpenAiServer;
import dev.hmpagent.testing.HeldLlm;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A halt that cancels the judge after its call began but before the provider's client attached the HTTP call: the old
 * road ({@code client.cancel()}) found no call in flight then and the judge's question went to the server all the
 * same; the judge call's own {@link CallCancel} is remembered, so the call attached after it is aborted.
 */
@Timeout(30)
class JudgeCancelBeforeAttachTest {
    private final FakeOpenAiServer server;
    private HeldLlm held;

    JudgeCancelBeforeAttachTest() throws Exception {
        server = new FakeOpenAiServer();
    }

    @AfterEach
    void stop() {
        if (held != null) held.goOn.countDown();
        server.close();
    }

    @Test
    void a_halt_before_the_judge_call_is_attached_aborts_it_and_no_question_reaches_the_server() throws Exception {
        LlmClient http = new OpenAiClient(new OpenAiSettings(server.baseUrl(), "", "judge", false,
                Duration.ofSeconds(5), Duration.ofSeconds(30)));
        held = new HeldLlm(http);
        LlmComparator judge = new LlmComparator(held, 300, 0.3, new LocalComparator(0.3));

        CompletableFuture<Comparison> compared = CompletableFuture.supplyAsync(
                () -> judge.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED));
        assertThat(held.entered.await(10, TimeUnit.SECONDS)).as("the judge call is on its way down the chain").isTrue();
        judge.cancel();   // what the cycle's halt hook does
        held.goOn.countDown(); // only now does the provider's client attach its HTTP call

        assertThat(compared.get(10, TimeUnit.SECONDS).verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(server.comparisons()).as("the judge's question never reached the server").isZero();
    }
}
