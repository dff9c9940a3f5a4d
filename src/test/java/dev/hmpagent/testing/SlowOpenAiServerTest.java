package dev.hmpagent.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.llm.CallCancel;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.openai.OpenAiClient;
import dev.hmpagent.llm.openai.OpenAiSettings;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The slow fake streams what the test releases, when it releases it, to the real client, and sees a hang-up. */
@Timeout(30)
class SlowOpenAiServerTest {
    private static final LlmRequest REQUEST = new LlmRequest(List.of(Message.user("Hi")), 0.2, 64);

    private final SlowOpenAiServer server;
    private final OpenAiClient client;
    private final BlockingQueue<String> deltas = new LinkedBlockingQueue<>();
    private final CallCancel cancel = new CallCancel();

    SlowOpenAiServerTest() throws Exception {
        server = new SlowOpenAiServer();
        client = new OpenAiClient(new OpenAiSettings(server.baseUrl(), "", "m", true,
                Duration.ofSeconds(5), Duration.ofSeconds(30)));
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    CompletableFuture<Completion> call() {
        return CompletableFuture.supplyAsync(() -> client.complete(REQUEST, deltas::add, cancel));
    }

    @Test
    void each_chunk_reaches_the_client_when_the_test_releases_it_and_the_reply_completes() throws Exception {
        SlowOpenAiServer.Reply reply = server.nextReply();
        CompletableFuture<Completion> done = call();
        assertThat(reply.awaitRequest().path("messages").get(0).path("content").asText()).isEqualTo("Hi");

        reply.send("Once upon");
        assertThat(deltas.poll(10, TimeUnit.SECONDS)).isEqualTo("Once upon");
        assertThat(deltas.poll(300, TimeUnit.MILLISECONDS)).as("nothing more before the next release").isNull();
        reply.send(" a time");
        assertThat(deltas.poll(10, TimeUnit.SECONDS)).isEqualTo(" a time");
        reply.finish(".");

        Completion c = done.get(10, TimeUnit.SECONDS);
        assertThat(c.text()).isEqualTo("Once upon a time.");
        assertThat(c.interrupted()).isFalse();
        assertThat(reply.awaitHangUp(Duration.ofMillis(300))).as("a finished reply is no hang-up").isFalse();
    }

    @Test
    void a_cancelled_call_is_seen_as_the_client_hanging_up() throws Exception {
        SlowOpenAiServer.Reply reply = server.nextReply();
        CompletableFuture<Completion> done = call();
        reply.awaitRequest();
        reply.send("Once upon");
        assertThat(deltas.poll(10, TimeUnit.SECONDS)).isEqualTo("Once upon");

        cancel.cancel();

        assertThat(reply.awaitHangUp(Duration.ofSeconds(10))).isTrue();
        assertThat(done.get(10, TimeUnit.SECONDS).interrupted()).isTrue();
    }

    @Test
    void a_whole_answer_streams_at_once() throws Exception {
        server.answer("All of it.");
        assertThat(call().get(10, TimeUnit.SECONDS).text()).isEqualTo("All of it.");
    }
}
