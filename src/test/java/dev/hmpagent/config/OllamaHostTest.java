package dev.hmpagent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** OLLAMA_HOST, read as Ollama's own client reads it, gives llm.base_url when nothing else sets it. */
class OllamaHostTest {
    @TempDir Path dir;

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "gpu-box                          | http://gpu-box:11434/v1",
            "gpu-box:8080                     | http://gpu-box:8080/v1",
            "192.168.1.20                     | http://192.168.1.20:11434/v1",
            "http://gpu-box:11434             | http://gpu-box:11434/v1",
            "http://gpu-box                   | http://gpu-box/v1",
            "https://ollama.example.org       | https://ollama.example.org/v1",
            "https://ollama.example.org:8443/ | https://ollama.example.org:8443/v1",
            "http://proxy.lan/ollama/         | http://proxy.lan/ollama/v1",
            "HTTP://Gpu-Box:11434             | http://Gpu-Box:11434/v1",
            "ollama.com                       | https://ollama.com/v1",
            "0.0.0.0                          | http://127.0.0.1:11434/v1",
            "0.0.0.0:9999                     | http://127.0.0.1:9999/v1",
            ":11435                           | http://127.0.0.1:11435/v1",
            "gpu-box:                         | http://gpu-box:11434/v1",
            "[::]:11434                       | http://[::1]:11434/v1",
            "::                               | http://[::1]:11434/v1",
            "[fe80::1]:8080                   | http://[fe80::1]:8080/v1",
            "::1                              | http://[::1]:11434/v1",
            "'  \"gpu-box:8080\" '            | http://gpu-box:8080/v1",
    })
    void reads_the_forms_ollama_reads(String raw, String baseUrl) throws InvalidValueException {
        assertThat(OllamaHost.baseUrl(raw)).isEqualTo(baseUrl);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "gpu-box:eleven            | has a port that is not a number from 1 to 65535",
            "gpu-box:70000             | has a port that is not a number from 1 to 65535",
            "gpu-box:0                 | has a port that is not a number from 1 to 65535",
            "ftp://gpu-box             | has a scheme other than http:// or https://",
            "gpu box                   | is not a host name or address",
            "user:secret@gpu-box:11434 | is not a host name or address",
            "gpu_box                   | is not a host name or address",
            "[::1                      | has a [ with no ] around its IPv6 address",
            "[::1]x                    | has text after the ] of its IPv6 address",
            "[gpu-box]:11434           | has a bracketed host that is not an IPv6 address",
            "http://gpu-box?x=1        | is not a host name or address",
    })
    void refuses_what_it_cannot_read_and_says_why(String raw, String reason) {
        assertThatThrownBy(() -> OllamaHost.baseUrl(raw)).isInstanceOf(InvalidValueException.class)
                .hasMessage(reason);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "gpu-box                  | http://gpu-box:11434",
            "http://proxy.lan/ollama/ | http://proxy.lan/ollama",
            "ollama.com               | https://ollama.com",
            "0.0.0.0:9999             | http://127.0.0.1:9999",
    })
    void the_root_url_is_the_same_server_without_v1_for_the_native_api(String raw, String root) {
        assertThat(OllamaHost.rootUrl(raw)).isEqualTo(root);
    }

    @Test
    void a_root_url_it_cannot_read_is_one_line_naming_the_variable_with_the_password_masked() {
        assertThatThrownBy(() -> OllamaHost.rootUrl("http://me:s3cret@gpu-box:eleven"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("OLLAMA_HOST = http://****@gpu-box:eleven is not a host name or address: use HOST")
                .message().doesNotContain("s3cret").doesNotContain("\n");
    }

    @Test
    void gives_the_default_base_url_and_says_it_came_from_ollama_host() {
        LoadedConfig loaded = TestSources.none().env("OLLAMA_HOST", "gpu-box:8080").load();

        assertThat(loaded.config().llm().baseUrl()).isEqualTo("http://gpu-box:8080/v1");
        assertThat(loaded.origin(ConfigKey.LLM_BASE_URL)).isEqualTo(Origin.env("OLLAMA_HOST"));
    }

    @Test
    void without_it_the_default_is_ollama_on_this_machine() {
        LoadedConfig loaded = TestSources.none().env("OLLAMA_HOST", " ").load();

        assertThat(loaded.config().llm().baseUrl()).isEqualTo("http://localhost:11434/v1");
        assertThat(loaded.origin(ConfigKey.LLM_BASE_URL)).isEqualTo(Origin.builtInDefault());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"OPENAI_BASE_URL", "AGENT_LLM_BASE_URL"})
    void a_base_url_variable_wins_and_a_bad_ollama_host_is_then_not_read(String variable) {
        LoadedConfig loaded = TestSources.none().env("OLLAMA_HOST", "gpu box").env(variable, "https://api.example.com/v1")
                .load();

        assertThat(loaded.config().llm().baseUrl()).isEqualTo("https://api.example.com/v1");
        assertThat(loaded.origin(ConfigKey.LLM_BASE_URL)).isEqualTo(Origin.env(variable));
    }

    @Test
    void a_file_or_a_flag_setting_the_base_url_wins() throws Exception {
        Path user = dir.resolve("user.toml");
        Files.writeString(user, "[llm]\nbase_url = \"http://from-user-file:1/v1\"\n");

        LoadedConfig fromFile = TestSources.none().env("OLLAMA_HOST", "gpu-box").user(user).load();
        LoadedConfig fromFlag = TestSources.none().env("OLLAMA_HOST", "gpu-box")
                .flag("llm.base_url", "http://from-flag:2/v1", "--base-url").load();

        assertThat(fromFile.config().llm().baseUrl()).isEqualTo("http://from-user-file:1/v1");
        assertThat(fromFile.origin(ConfigKey.LLM_BASE_URL)).isEqualTo(Origin.userFile(user));
        assertThat(fromFlag.config().llm().baseUrl()).isEqualTo("http://from-flag:2/v1");
        assertThat(fromFlag.origin(ConfigKey.LLM_BASE_URL)).isEqualTo(Origin.flag("--base-url"));
    }

    @Test
    void a_malformed_value_it_would_use_is_one_line_naming_the_variable_and_the_expected_form() {
        assertThatThrownBy(() -> TestSources.none().env("OLLAMA_HOST", "gpu-box:eleven").load())
                .isInstanceOf(ConfigException.class)
                .hasMessage("OLLAMA_HOST = gpu-box:eleven (read because nothing sets llm.base_url) has a port that is"
                        + " not a number from 1 to 65535: use HOST, HOST:PORT or http://HOST:PORT,"
                        + " e.g. 192.168.1.20:11434 (or set llm.base_url, which wins)");
    }

    @Test
    void a_password_in_a_refused_value_is_masked() {
        assertThatThrownBy(() -> TestSources.none().env("OLLAMA_HOST", "http://me:s3cret@gpu-box").load())
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("OLLAMA_HOST = http://****@gpu-box (read because")
                .message().doesNotContain("s3cret");
        assertThat(OllamaHost.shown("me:s3cret@gpu-box:1")).isEqualTo("****@gpu-box:1");
    }

    @Test
    void the_default_base_url_comes_from_ollama_host_as_a_root_or_is_this_machine() {
        assertThat(OllamaHost.defaultRootUrl(Map.of())).isEqualTo("http://localhost:11434");
        assertThat(OllamaHost.defaultRootUrl(Map.of("OLLAMA_HOST", "  "))).isEqualTo("http://localhost:11434");
        assertThat(OllamaHost.defaultRootUrl(Map.of("OLLAMA_HOST", "gpu-box:8080"))).isEqualTo("http://gpu-box:8080");
        assertThat(OllamaHost.defaultRootUrl(Map.of("OLLAMA_HOST", "0.0.0.0"))).isEqualTo("http://127.0.0.1:11434");
        assertThat(OllamaHost.defaultRootUrl(Map.of("OLLAMA_HOST", "https://ollama.com")))
                .isEqualTo("https://ollama.com");
    }

    @Test
    void an_unusable_ollama_host_is_refused_naming_the_variable() {
        assertThatThrownBy(() -> OllamaHost.defaultRootUrl(Map.of("OLLAMA_HOST", "gpu-box:eleven")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("OLLAMA_HOST = gpu-box:eleven has a port that is not a number");
    }
}
