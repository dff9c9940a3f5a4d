package dev.hmpagent.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ConfigKeyTest {
    @Test
    void everyKeyIsSectionDotLeafInAKnownSection() {
        for (ConfigKey key : ConfigKey.values()) {
            assertThat(key.fullName()).matches("[a-z][a-z0-9]*\\.[a-z_]+");
            assertThat(key.section()).isIn("agent", "llm", "cycle", "context", "run", "policy", "files", "shell",
                    "cleanup", "safety", "stagnation", "sandbox", "mcp", "a2a");
            assertThat(ConfigKey.byName(key.fullName())).contains(key);
        }
    }

    @Test
    void everyKeyHasADocAndAtLeastOneEnvVarExceptTheOnesOnlyAgentTomlSets() {
        for (ConfigKey key : ConfigKey.values()) {
            assertThat(key.doc()).as(key.fullName()).isNotBlank();
            if (key.fileOnly()) {
                assertThat(key.envNames()).as(key.fullName()).isEmpty();
                continue;
            }
            assertThat(key.envNames()).as(key.fullName()).isNotEmpty()
                    .allSatisfy(name -> assertThat(name).matches("(AGENT|OPENAI)_[A-Z0-9_]+"));
        }
    }

    @Test
    void envVarNamesAreUniqueAcrossKeys() {
        long all = Arrays.stream(ConfigKey.values()).mapToLong(k -> k.envNames().size()).sum();
        long distinct = Arrays.stream(ConfigKey.values()).flatMap(k -> k.envNames().stream()).distinct().count();

        assertThat(distinct).isEqualTo(all);
    }

    @Test
    void displayValueOfEveryDefaultMatchesTheDeclaredDefault() {
        AgentConfig defaults = AgentConfig.defaults();
        for (ConfigKey key : ConfigKey.values()) {
            String expected = key.secret() ? Secrets.mask(key.defaultValue()) : key.defaultValue();
            assertThat(key.displayValue(defaults)).as(key.fullName()).isEqualTo(expected);
        }
    }

    @Test
    void onlyTheAlertCommandAndTheMcpServersAreSetOnlyInAgentToml() {
        assertThat(Arrays.stream(ConfigKey.values()).filter(ConfigKey::fileOnly))
                .containsExactly(ConfigKey.SAFETY_ALERT_COMMAND, ConfigKey.MCP_SERVERS);
    }

    @Test
    void onlyTheApiKeyIsSecret() {
        assertThat(Arrays.stream(ConfigKey.values()).filter(ConfigKey::secret)).containsExactly(ConfigKey.LLM_API_KEY);
    }

    @Test
    void suggestionsFindKeysWithinTwoEditsOrByLeafName() {
        assertThat(KeySuggester.suggest("llm.modle")).contains(ConfigKey.LLM_MODEL);
        assertThat(KeySuggester.suggest("agent.bd")).contains(ConfigKey.AGENT_DB);
        assertThat(KeySuggester.suggest("poll_ms")).contains(ConfigKey.CYCLE_POLL_MS);
        assertThat(KeySuggester.suggest("tools.shell")).isEmpty();
    }
}
