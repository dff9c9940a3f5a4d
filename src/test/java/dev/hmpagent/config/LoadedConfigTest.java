package dev.hmpagent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadedConfigTest {
    private static final String SECRET = "sk-proj-ABCDEFGHIJKLMNOP1234";

    @TempDir
    Path dir;

    @Test
    void describeHasOneLinePerKeyInTableOrder() {
        List<String> lines = LoadedConfig.defaults().describe();

        assertThat(lines).hasSize(ConfigKey.values().length);
        for (int i = 0; i < lines.size(); i++) {
            assertThat(lines.get(i)).startsWith(ConfigKey.values()[i].fullName() + " ");
        }
    }

    @Test
    void originsAreKeptInTableOrderAndMustCoverEveryKey() {
        LoadedConfig loaded = LoadedConfig.defaults();

        assertThat(loaded.origins().keySet())
                .containsExactly(Arrays.stream(ConfigKey.values()).map(ConfigKey::fullName).toArray(String[]::new));
        assertThatThrownBy(() -> new LoadedConfig(AgentConfig.defaults(), Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void describeAlignsValuesAndNamesTheOrigin() {
        List<String> lines = TestSources.none().env("OPENAI_API_KEY", SECRET).load().describe();
        List<String> shortValues = lines.stream()
                .filter(line -> line.indexOf("  (") - line.indexOf(" = ") - 3 <= LoadedConfig.ALIGNED_VALUE_WIDTH)
                .toList();

        assertThat(lines).allSatisfy(line -> assertThat(line.indexOf(" = ")).isEqualTo(lines.get(0).indexOf(" = ")));
        assertThat(shortValues).hasSizeGreaterThan(lines.size() / 2)
                .allSatisfy(line -> assertThat(line.indexOf("  (")).isEqualTo(lines.get(0).indexOf("  (")));
        assertThat(lines).anySatisfy(line -> assertThat(line)
                .matches("llm\\.base_url += http://localhost:11434/v1 +\\(default\\)"));
        assertThat(lines).anySatisfy(line -> assertThat(line)
                .matches("llm\\.api_key += \\*\\*\\*\\*1234 +\\(env OPENAI_API_KEY\\)"));
    }

    @Test
    void credentialsInsideTheBaseUrlAreHiddenToo() {
        List<String> lines = TestSources.none()
                .env("OPENAI_BASE_URL", "https://ann:hunter2@llm.example.com/v1").load().describe();
        assertThat(String.join("\n", lines)).contains("https://****@llm.example.com/v1").doesNotContain("hunter2");
        assertThat(Secrets.redactUrl("https://h/v1?api-key=s3cret&x=1#f")).isEqualTo("https://h/v1?api-key=****&x=****#f");
        assertThat(Secrets.redactUrl("http://localhost:11434/v1")).isEqualTo("http://localhost:11434/v1");
    }

    @Test
    void aBaseUrlWithAQueryIsRefusedWithoutShowingTheQueryValues() {
        assertThatThrownBy(() -> TestSources.none().env("OPENAI_BASE_URL", "https://h.example/v1?api-key=s3cret").load())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("llm.base_url")
                .hasMessageContaining("?query")
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void describeNeverShowsTheSecretButShowsItsLastFourCharacters() throws IOException {
        Path file = Files.writeString(dir.resolve("agent.toml"), "[llm]\napi_key = \"" + SECRET + "\"\n");
        LoadedConfig loaded = TestSources.none().project(file).load();

        String text = String.join("\n", loaded.describe());

        assertThat(text).doesNotContain(SECRET).doesNotContain("ABCDEFGH").contains("****1234");
    }

    @Test
    void secretsAreMaskedByLength() {
        assertThat(Secrets.mask("")).isEqualTo("(not set)");
        assertThat(Secrets.mask("short-key-12345")).isEqualTo("********");
        assertThat(Secrets.mask("long-enough-key-9876")).isEqualTo("****9876");
        assertThat(LoadedConfig.defaults().describe())
                .anySatisfy(line -> assertThat(line).contains("llm.api_key").contains("(not set)"));
    }

    @Test
    void toStringOfEveryRecordHoldingTheKeyMasksIt() {
        LoadedConfig loaded = TestSources.none().env("AGENT_LLM_API_KEY", SECRET).load();
        ConfigSources sources = TestSources.none().env("AGENT_LLM_API_KEY", SECRET)
                .flag("llm.api_key", SECRET, "--api-key").build();

        assertThat(loaded.config().llm().toString()).doesNotContain(SECRET).contains("apiKey=****1234");
        assertThat(loaded.config().toString()).doesNotContain(SECRET);
        assertThat(loaded.toString()).doesNotContain(SECRET);
        assertThat(sources.toString()).doesNotContain(SECRET).contains("llm.api_key");
    }

    @Test
    void describeShowsListsAsTomlArraysWithTheirOriginAndDoesNotPadShortValuesToTheirWidth() {
        List<String> lines = TestSources.none()
                .env("AGENT_POLICY_SHELL_ASK", "git push, npm")
                .load().describe();

        assertThat(lines).anySatisfy(l -> assertThat(l)
                .matches("policy\\.shell_ask += \\[\"git push\", \"npm\"\\] +\\(env AGENT_POLICY_SHELL_ASK\\)"));
        assertThat(lines).anySatisfy(l -> assertThat(l).matches("policy\\.shell_allow += \\[\"ls\", \"cat\", .*"
                + "\"git diff\"\\]  \\(default\\)"));
        assertThat(lines).anySatisfy(l -> assertThat(l).matches("files\\.roots += \\[\\] +\\(default\\)"));
        assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThan(160));
    }

    @Test
    void describeShowsNonDefaultValuesInConfigFileUnits() {
        List<String> lines = TestSources.none()
                .flag("llm.connect_timeout_s", "42")
                .flag("cycle.poll_ms", "1500")
                .flag("context.notes_mode", "MANUAL")
                .load().describe();

        assertThat(lines).anySatisfy(l -> assertThat(l).matches("llm\\.connect_timeout_s += 42 +\\(flag llm\\.connect_timeout_s\\)"));
        assertThat(lines).anySatisfy(l -> assertThat(l).matches("cycle\\.poll_ms += 1500 +\\(.*"));
        assertThat(lines).anySatisfy(l -> assertThat(l).matches("context\\.notes_mode += manual +\\(.*"));
    }
}
