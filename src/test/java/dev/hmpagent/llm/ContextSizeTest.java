package dev.hmpagent.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The context window a server says it gives a model: llama.cpp's /props, Ollama's /api/show, or not said. */
class ContextSizeTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
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
    void llama_cpp_says_its_slot_context_at_props_beside_v1_with_the_key() throws Exception {
        server.enqueue(json("{\"default_generation_settings\": {\"n_ctx\": 4096, \"params\": {}}, \"total_slots\": 1}"));

        OptionalInt size = ContextSize.of(ContextSize.Api.LLAMA_CPP, base("/v1"), "gemma", "k-1", Map.of(), TIMEOUT);

        assertThat(size).hasValue(4096);
        RecordedRequest r = server.takeRequest();
        assertThat(r.getMethod()).isEqualTo("GET");
        assertThat(r.getUrl().encodedPath()).isEqualTo("/props");
        assertThat(r.getHeaders().get("Authorization")).isEqualTo("Bearer k-1");
    }

    @Test
    void an_older_llama_cpp_says_n_ctx_at_the_top() {
        server.enqueue(json("{\"n_ctx\": 2048}"));

        assertThat(ContextSize.of(ContextSize.Api.LLAMA_CPP, base("/"), "m", "", Map.of(), TIMEOUT)).hasValue(2048);
    }

    @Test
    void a_server_without_props_or_a_server_that_is_down_is_unknown() {
        server.enqueue(new MockResponse.Builder().code(404).body("{\"error\": \"not found\"}").build());
        server.enqueue(json("{\"model_path\": \"x\"}"));

        assertThat(ContextSize.of(ContextSize.Api.LLAMA_CPP, base("/v1"), "m", "", Map.of(), TIMEOUT)).isEmpty();
        assertThat(ContextSize.of(ContextSize.Api.LLAMA_CPP, base("/v1"), "m", "", Map.of(), TIMEOUT))
                .as("no n_ctx in the answer").isEmpty();
        server.close();
        assertThat(ContextSize.of(ContextSize.Api.LLAMA_CPP, base("/v1"), "m", "", Map.of(), TIMEOUT)).isEmpty();
    }

    @Test
    void ollama_says_the_models_context_length_at_api_show() throws Exception {
        server.enqueue(json("{\"parameters\": \"stop \\\"<end_of_turn>\\\"\", \"model_info\": {\"general.architecture\":"
                + " \"gemma3\", \"gemma3.block_count\": 18, \"gemma3.context_length\": 32768}}"));

        OptionalInt size = ContextSize.of(ContextSize.Api.OLLAMA, base("/"), "gemma3:270m", "", Map.of(), TIMEOUT);

        assertThat(size).hasValue(32768);
        RecordedRequest r = server.takeRequest();
        assertThat(r.getMethod()).isEqualTo("POST");
        assertThat(r.getUrl().encodedPath()).isEqualTo("/api/show");
        assertThat(r.getBody().utf8()).isEqualTo("{\"model\":\"gemma3:270m\"}");
    }

    @Test
    void a_num_ctx_in_the_options_is_the_window_and_nothing_is_asked() {
        assertThat(ContextSize.of(ContextSize.Api.OLLAMA, base("/"), "m", "", Map.of("num_ctx", 4096), TIMEOUT))
                .hasValue(4096);
        assertThat(server.getRequestCount()).isZero();
    }
}
