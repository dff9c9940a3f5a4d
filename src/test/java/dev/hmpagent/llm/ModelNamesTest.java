package dev.hmpagent.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each API's own list of models, asked where its key belongs. */
class ModelNamesTest {
    MockWebServer server;

    @BeforeEach
    void start() throws IOException {
        server = new MockWebServer();
        server.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String base(String path) {
        return server.url(path).toString();
    }

    private static MockResponse json(String body) {
        return new MockResponse.Builder().setHeader("Content-Type", "application/json").body(body).build();
    }

    @Test
    void ollama_lists_its_tags_sorted() throws Exception {
        server.enqueue(json("{\"models\": [{\"name\": \"qwen2.5:7b\"}, {\"name\": \"gemma3:270m\"}, {\"model\": \"x\"}]}"));
        assertThat(ModelNames.fetch(ModelNames.Api.OLLAMA, base("/"), "", Duration.ofSeconds(5)))
                .containsExactly("gemma3:270m", "qwen2.5:7b");
        RecordedRequest r = server.takeRequest();
        assertThat(r.getUrl().encodedPath()).isEqualTo("/api/tags");
        assertThat(r.getHeaders().get("Authorization")).as("no key, no header").isNull();
    }

    @Test
    void openai_compatible_lists_data_ids_under_its_base_with_the_bearer_key() throws Exception {
        server.enqueue(json("{\"object\": \"list\", \"data\": [{\"id\": \"gpt-4o-mini\"}, {\"id\": \"bad\\u001b[31m\"}]}"));
        assertThat(ModelNames.fetch(ModelNames.Api.OPENAI, base("/v1"), "k-1", Duration.ofSeconds(5)))
                .containsExactly("gpt-4o-mini");
        RecordedRequest r = server.takeRequest();
        assertThat(r.getUrl().encodedPath()).isEqualTo("/v1/models");
        assertThat(r.getHeaders().get("Authorization")).isEqualTo("Bearer k-1");
    }

    @Test
    void anthropic_gets_its_key_as_x_api_key_and_its_version() throws Exception {
        server.enqueue(json("{\"data\": [{\"id\": \"claude-sonnet-4-5\"}], \"has_more\": false}"));
        assertThat(ModelNames.fetch(ModelNames.Api.ANTHROPIC, base("/"), "k-2", Duration.ofSeconds(5)))
                .containsExactly("claude-sonnet-4-5");
        RecordedRequest r = server.takeRequest();
        assertThat(r.getUrl().encodedPath()).isEqualTo("/v1/models");
        assertThat(r.getHeaders().get("x-api-key")).isEqualTo("k-2");
        assertThat(r.getHeaders().get("Authorization")).isNull();
        assertThat(r.getHeaders().get("anthropic-version")).isNotBlank();
    }

    @Test
    void a_refusal_or_another_shape_is_one_line_without_the_key() {
        server.enqueue(new MockResponse.Builder().code(401).body("{\"error\": \"bad key k-3\"}").build());
        assertThatThrownBy(() -> ModelNames.fetch(ModelNames.Api.OPENAI, base("/v1"), "k-3", Duration.ofSeconds(5)))
                .isInstanceOf(IOException.class).hasMessageContaining("HTTP 401").hasMessageNotContaining("k-3");
        server.enqueue(json("<html>login</html>"));
        assertThatThrownBy(() -> ModelNames.fetch(ModelNames.Api.OPENAI, base("/v1"), "", Duration.ofSeconds(5)))
                .isInstanceOf(IOException.class);
    }
}
