package dev.hmpagent.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** agent.example.toml lives at the module root, which is the working directory of the tests. */
class ExampleFileTest {
    private static final Path EXAMPLE = Path.of("agent.example.toml");

    @Test
    void parsingTheExampleYieldsExactlyTheDefaults() {
        LoadedConfig loaded = ConfigLoader.load(TestSources.none().explicitConfig(EXAMPLE).build());

        assertThat(loaded.config()).isEqualTo(AgentConfig.defaults());
        assertThat(loaded.origins().values()).as("every key is written out").containsOnly(Origin.projectFile(EXAMPLE));
    }

    @Test
    void everyKeyAppearsInItsSectionWithACommentNamingItsEnvVars() throws IOException {
        List<String> lines = Files.readAllLines(EXAMPLE);

        for (ConfigKey key : ConfigKey.values()) {
            int at = lineOf(lines, key).orElseThrow(() -> new AssertionError(key.fullName() + " missing"));
            String comment = lines.get(at - 1);
            assertThat(comment).as("comment above " + key.fullName()).startsWith("# ");
            if (key.fileOnly()) {
                assertThat(comment).as("comment above " + key.fullName()).contains("Only in this file");
            } else {
                assertThat(comment).as("comment above " + key.fullName()).contains(key.envNames());
            }
        }
    }

    @Test
    void headerExplainsPrecedenceAndTheOpenAiVariablesAndShowsProviderExamples() throws IOException {
        String text = Files.readString(EXAMPLE);

        assertThat(text).contains("Precedence", "OPENAI_API_KEY", "OPENAI_BASE_URL",
                "https://api.openai.com/v1", "gpt-4o-mini", "Ollama");
    }

    /** Index of the uncommented {@code leaf = ...} line inside {@code [section]}. */
    private static Optional<Integer> lineOf(List<String> lines, ConfigKey key) {
        String section = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.startsWith("[")) {
                section = line.substring(1, line.indexOf(']'));
            } else if (key.section().equals(section) && line.startsWith(key.leafName() + " = ")) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }
}
