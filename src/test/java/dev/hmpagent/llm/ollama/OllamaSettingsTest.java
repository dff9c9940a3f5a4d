package dev.hmpagent.llm.ollama;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OllamaSettingsTest {
    private static OllamaSettings with(Map<String, Object> options, String keepAlive) {
        return new OllamaSettings("http://localhost:11434", "llama3.2", true, Duration.ofSeconds(10),
                Duration.ofSeconds(120), Duration.ofSeconds(300), options, keepAlive, "");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "http://localhost:11434             | http://localhost:11434",
            "http://localhost:11434/            | http://localhost:11434",
            "http://localhost:11434/v1          | http://localhost:11434",
            "http://localhost:11434/v1/         | http://localhost:11434",
            "http://localhost:11434/api         | http://localhost:11434",
            "https://ollama.com/api             | https://ollama.com",
            "' http://gpu-box:11434/V1// '      | http://gpu-box:11434",
            "http://proxy.lan/ollama/v1         | http://proxy.lan/ollama",
            "http://proxy.lan/v1/ollama         | http://proxy.lan/v1/ollama",
    })
    void the_base_url_is_reduced_to_the_servers_root(String given, String root) {
        assertThat(new OllamaSettings(given, "llama3.2").baseUrl()).isEqualTo(root);
    }

    @Test
    void the_short_form_streams_with_the_default_timeouts_and_nothing_extra() {
        OllamaSettings settings = new OllamaSettings("http://localhost:11434", "llama3.2");

        assertThat(settings.stream()).isTrue();
        assertThat(settings.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.readTimeout()).isEqualTo(Duration.ofSeconds(120));
        assertThat(settings.callDeadline()).isEqualTo(Duration.ofSeconds(300));
        assertThat(settings.options()).isEmpty();
        assertThat(settings.keepAlive()).isEmpty();
        assertThat(settings.apiKey()).isEmpty();
    }

    @Test
    void options_are_copied_in_order_and_cannot_change_afterwards() {
        Map<String, Object> given = new LinkedHashMap<>();
        given.put("num_ctx", 8192);
        List<Object> stops = new ArrayList<>(List.of("user:"));
        given.put("stop", stops);
        given.put("penalize_newline", true);
        OllamaSettings settings = with(given, "");
        given.put("seed", 1);
        stops.add("assistant:");

        assertThat(settings.options()).containsExactly(Map.entry("num_ctx", 8192), Map.entry("stop", List.of("user:")),
                Map.entry("penalize_newline", true));
        assertThatThrownBy(() -> settings.options().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void an_option_that_is_not_plain_json_is_refused_naming_it() {
        Map<String, Object> nested = new HashMap<>();
        nested.put("odd", Map.of("a", 1));

        assertThatThrownBy(() -> with(nested, "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("option odd");
        assertThatThrownBy(() -> with(Map.of("stop", List.of(List.of("x"))), ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("option stop");
    }

    @ParameterizedTest
    @ValueSource(strings = {"5m", "1h30m", "-1m", "0", "-1", "3600", "1.5h", "300ms", " 10m "})
    void keep_alive_takes_a_go_duration_or_whole_seconds(String keepAlive) {
        assertThat(with(Map.of(), keepAlive).keepAlive()).isEqualTo(keepAlive.strip());
    }

    @ParameterizedTest
    @ValueSource(strings = {"forever", "5 minutes", "m", "1.5", "10d"})
    void keep_alive_refuses_anything_else(String keepAlive) {
        assertThatThrownBy(() -> with(Map.of(), keepAlive)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("keepAlive");
    }

    @Test
    void a_null_keep_alive_or_key_means_none_and_the_key_is_never_shown() {
        OllamaSettings settings = new OllamaSettings("http://x:1", "m", true, Duration.ofSeconds(1),
                Duration.ofSeconds(1), Duration.ofSeconds(1), Map.of(), null, "sk-secret");

        assertThat(settings.keepAlive()).isEmpty();
        assertThat(settings.toString()).contains("apiKey=***").doesNotContain("sk-secret");
    }

    @Test
    void blank_fields_and_a_non_positive_deadline_are_refused() {
        assertThatThrownBy(() -> new OllamaSettings(" / ", "m")).hasMessageContaining("baseUrl");
        assertThatThrownBy(() -> new OllamaSettings("http://x:1", " ")).hasMessageContaining("model");
        assertThatThrownBy(() -> new OllamaSettings("http://x:1", "m", true, Duration.ofSeconds(1),
                Duration.ofSeconds(1), Duration.ZERO, Map.of(), "", "")).hasMessageContaining("callDeadline");
    }
}
