package dev.hmpagent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** llm.presence_penalty and llm.frequency_penalty: the knobs the anti-stagnation reflex turns. */
class LlmPenaltyConfigTest {
    @TempDir
    Path dir;

    private ConfigException failure(TestSources sources) {
        ConfigException e = catchThrowableOfType(ConfigException.class, sources::load);
        assertThat(e).as("expected a ConfigException").isNotNull();
        assertThat(e.getMessage()).as("one line").doesNotContain("\n");
        return e;
    }

    @Test
    void bothPenaltiesDefaultToZeroWhichSendsNone() {
        LoadedConfig loaded = LoadedConfig.defaults();

        assertThat(loaded.config().llm().presencePenalty()).isZero();
        assertThat(loaded.config().llm().frequencyPenalty()).isZero();
        assertThat(loaded.describe())
                .anySatisfy(line -> assertThat(line).matches("llm\\.presence_penalty += 0\\.0 +\\(default\\)"))
                .anySatisfy(line -> assertThat(line).matches("llm\\.frequency_penalty += 0\\.0 +\\(default\\)"));
    }

    @Test
    void aFileSetsThemAndAnEnvVarOverridesTheFile() throws IOException {
        Path file = Files.writeString(dir.resolve("agent.toml"),
                "[llm]\npresence_penalty = 0.6\nfrequency_penalty = -1\n");

        LoadedConfig fromFile = TestSources.none().project(file).load();
        LoadedConfig fromEnv = TestSources.none().project(file).env("AGENT_LLM_PRESENCE_PENALTY", "1.5").load();

        assertThat(fromFile.config().llm().presencePenalty()).isEqualTo(0.6);
        assertThat(fromFile.config().llm().frequencyPenalty()).isEqualTo(-1.0);
        assertThat(fromEnv.config().llm().presencePenalty()).isEqualTo(1.5);
        assertThat(fromEnv.origin(ConfigKey.LLM_PRESENCE_PENALTY)).isEqualTo(Origin.env("AGENT_LLM_PRESENCE_PENALTY"));
        assertThat(fromEnv.origin(ConfigKey.LLM_FREQUENCY_PENALTY)).isEqualTo(Origin.projectFile(file));
    }

    @Test
    void aPenaltyOutsideMinusTwoToTwoIsRefusedNamingTheKey() {
        assertThat(failure(TestSources.none().env("AGENT_LLM_FREQUENCY_PENALTY", "2.5")))
                .hasMessage("llm.frequency_penalty = 2.5 (from env AGENT_LLM_FREQUENCY_PENALTY) is out of range:"
                        + " use a number from -2 to 2");
        assertThat(failure(TestSources.none().env("AGENT_LLM_PRESENCE_PENALTY", "-2.01")).getMessage())
                .startsWith("llm.presence_penalty = -2.01 (from env AGENT_LLM_PRESENCE_PENALTY) is out of range");
    }

    @Test
    void codeWrittenBeforeThePenaltiesStillBuildsASectionThatSendsNone() {
        LlmSection d = AgentConfig.defaults().llm();

        LlmSection built = new LlmSection(d.baseUrl(), d.model(), d.apiKey(), d.temperature(), d.maxTokens(),
                d.stream(), d.connectTimeout(), d.readTimeout(), d.maxBackoff(), d.callDeadline(), d.giveUp());

        assertThat(built).isEqualTo(d);
        assertThat(built.toString()).contains("presencePenalty=0.0", "frequencyPenalty=0.0");
    }
}
