package dev.hmpagent.llm.openai;

import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.testing.FakeOpenAiServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The failures other rooms' tests script with {@link FakeOpenAiServer} reach the client as promised. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class OpenAiClientOnFakeServerTest {
    private static final LlmRequest REQUEST = new LlmRequest(List.of(Message.user("Hi")), 0.2, 64);

    private final FakeOpenAiServer server;
    private final OpenAiClient client;

    OpenAiClientOnFakeServerTest() throws IOException {
        server = new FakeOpenAiServer();
        client = new OpenAiClient(new OpenAiSettings(server.baseUrl(), "", "test-model", true,
                Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofMillis(300)));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private RetryableLlmException failure() {
        LlmException e = catchThrowableOfType(LlmException.class, () -> client.complete(REQUEST, StreamListener.NONE));
        assertThat(e).isInstanceOf(RetryableLlmException.class);
        return (RetryableLlmException) e;
    }

    @Test
    void truncated_is_a_truncated_failure_with_the_text() {
        server.truncated("Half a tho");

        RetryableLlmException e = failure();

        assertThat(e.kind()).isEqualTo("truncated");
        assertThat(e.partialText()).isEqualTo("Half a tho");
    }

    @Test
    void keep_alive_only_runs_into_the_call_deadline() {
        server.keepAliveOnly("Thinking");

        RetryableLlmException e = failure();

        assertThat(e.kind()).isEqualTo("deadline");
        assertThat(e.partialText()).isEqualTo("Thinking");
    }

    @Test
    void login_page_is_a_content_type_failure() {
        server.loginPage();

        RetryableLlmException e = failure();

        assertThat(e.kind()).isEqualTo("content_type");
        assertThat(e.getMessage()).contains("text/html", "llm.base_url");
    }

    @Test
    void a_normal_reply_still_completes_within_the_deadline() {
        server.streamed("Hello there", 5, 2);

        assertThat(client.complete(REQUEST, StreamListener.NONE).text()).isEqualTo("Hello there");
    }
}
