package dev.hmpagent.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hmpagent.llm.openai.OpenAiClient;
import dev.hmpagent.llm.openai.OpenAiSettings;
import dev.hmpagent.testing.FakeOpenAiServer;
import dev.hmpagent.testing.MutableClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The window the old cancel road ({@code LlmClient.cancel()} forwarded down the chain to the client "calling") covered
 * and the call's {@link CallCancel} alone did not: in an outage, a call first probes whether an LLM answers again, and
 * a halt that lands during that probe must close it at once, as it closes the call, not after the probe's read timeout.
 * The probe it cut short says nothing of the LLM: the outage goes on and no full prompt is sent.
 */
@Timeout(30)
class CancelReachesProbesTest {
    private static final LlmRequest REQUEST = new LlmRequest(List.of(Message.user("hello")), 0.7, 100);

    private final FakeOpenAiServer server;
    private final MutableClock clock = MutableClock.at("2026-11-29T18:00:00Z");

    CancelReachesProbesTest() throws Exception {
        server = new FakeOpenAiServer();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void a_cancel_during_an_outage_probe_closes_the_probe_and_the_call_ends_interrupted() throws Exception {
        OpenAiClient http = new OpenAiClient(new OpenAiSettings(server.baseUrl(), "", "m", true,
                Duration.ofSeconds(5), Duration.ofSeconds(60)));
        FailoverLlm failover = new FailoverLlm(List.of(new FailoverLlm.Route("main", http)), (failures, time) -> true,
                new Backoff(Duration.ofSeconds(15), Duration.ofMinutes(5)), clock.monotonic()::nanoTime);
        server.status(503, "{\"error\":{\"message\":\"overloaded\"}}");
        catchThrowableOfType(RetryableLlmException.class, () -> failover.complete(REQUEST, StreamListener.NONE));
        assertThat(failover.inOutage()).isTrue();
        failover.notices();
        CountDownLatch probeClosed = new CountDownLatch(1);
        server.slowUntilClientCloses("p", probeClosed);   // the probe: the server holds it open

        CallCancel halt = new CallCancel();
        CompletableFuture<Completion> call = CompletableFuture.supplyAsync(
                () -> failover.complete(REQUEST, StreamListener.NONE, halt));
        server.take();   // the 503
        server.take();   // the probe is on the server
        halt.cancel();

        assertThat(probeClosed.await(10, TimeUnit.SECONDS)).as("the halt closed the probe's connection").isTrue();
        assertThat(call.get(10, TimeUnit.SECONDS).interrupted()).isTrue();
        assertThat(failover.inOutage()).as("a probe cut short does not end the outage").isTrue();
        assertThat(failover.notices()).as("nothing was heard of the LLM").isEmpty();
        assertThat(server.requestCount()).as("no full prompt after the halt").isEqualTo(2);
    }
}
