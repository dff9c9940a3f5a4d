package dev.hmpagent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StagnationConfigTest {
    @TempDir
    Path dir;

    private Path write(String toml) throws IOException {
        return Files.writeString(dir.resolve("agent.toml"), toml);
    }

    private ConfigException failure(TestSources sources) {
        ConfigException e = catchThrowableOfType(ConfigException.class, sources::load);
        assertThat(e).as("expected a ConfigException").isNotNull();
        assertThat(e.getMessage()).as("one line").doesNotContain("\n");
        return e;
    }

    @Test
    void theDefaultsAreTheIssuesNumbers() {
        StagnationSection s = AgentConfig.defaults().stagnation();

        assertThat(s).isEqualTo(new StagnationSection(StagnationSection.Method.HYBRID, "", 200, 0.15, 0.9, 0.3, 2,
                20, 8, 8, true, 3, 2, Duration.ofMinutes(10), Duration.ofHours(1), 20, 10));
        assertThat(s.modelOr("llama3.2")).as("empty model: the main one").isEqualTo("llama3.2");
    }

    @Test
    void everyKeyIsReadFromTheFile() throws IOException {
        Path file = write("""
                [stagnation]
                method = "local"
                model = "qwen2.5:0.5b"
                max_tokens = 8192
                near_identical = 0
                ambiguous_high = 1
                novelty_threshold = 0.45
                low_novelty_ticks = 5
                repeat_window = 100
                no_growth_ticks = 0
                no_stimulus_ticks = 12
                reflex = false
                rating_ticks = 6
                max_questions = 1
                sleep_s = 30
                task_switch_s = 7200
                chant_min_period = 40
                chant_repeats = 3
                """);

        LoadedConfig loaded = TestSources.none().project(file).load();
        StagnationSection s = loaded.config().stagnation();

        assertThat(s).isEqualTo(new StagnationSection(StagnationSection.Method.LOCAL, "qwen2.5:0.5b", 8192, 0.0, 1.0,
                0.45, 5, 100, 0, 12, false, 6, 1, Duration.ofSeconds(30), Duration.ofHours(2), 40, 3));
        assertThat(s.modelOr("llama3.2")).isEqualTo("qwen2.5:0.5b");
        assertThat(loaded.origin(ConfigKey.STAGNATION_CHANT_REPEATS)).isEqualTo(Origin.projectFile(file));
    }

    @Test
    void anEnvVarOverridesTheFileAndAFlagOverridesBoth() throws IOException {
        Path file = write("[stagnation]\nmethod = \"local\"\nsleep_s = 30\nreflex = true\n");

        LoadedConfig loaded = TestSources.none().project(file)
                .env("AGENT_STAGNATION_METHOD", "LLM")
                .env("AGENT_STAGNATION_REFLEX", "no")
                .env("AGENT_STAGNATION_NOVELTY_THRESHOLD", "0.5")
                .env("AGENT_STAGNATION_SLEEP_S", "900")
                .flag("stagnation.sleep_s", "1200", "--set stagnation.sleep_s")
                .load();
        StagnationSection s = loaded.config().stagnation();

        assertThat(s.method()).isEqualTo(StagnationSection.Method.LLM);
        assertThat(s.reflex()).isFalse();
        assertThat(s.noveltyThreshold()).isEqualTo(0.5);
        assertThat(s.sleep()).isEqualTo(Duration.ofMinutes(20));
        assertThat(loaded.origin(ConfigKey.STAGNATION_METHOD)).isEqualTo(Origin.env("AGENT_STAGNATION_METHOD"));
        assertThat(loaded.origin(ConfigKey.STAGNATION_SLEEP_S)).isEqualTo(Origin.flag("--set stagnation.sleep_s"));
        assertThat(loaded.origin(ConfigKey.STAGNATION_MAX_TOKENS)).isEqualTo(Origin.builtInDefault());
    }

    @Test
    void everyKeyHasOneEnvVarNamedAfterItsLeaf() {
        List<ConfigKey> keys = List.of(ConfigKey.values()).stream()
                .filter(key -> key.section().equals("stagnation")).toList();

        assertThat(keys).hasSize(17);
        for (ConfigKey key : keys) {
            assertThat(key.envNames()).as(key.fullName())
                    .containsExactly("AGENT_STAGNATION_" + key.leafName().toUpperCase(Locale.ROOT));
        }
    }

    @Test
    void anOutOfRangeNumberIsRefusedNamingTheKeyItsSourceAndTheRange() throws IOException {
        assertThat(failure(TestSources.none().env("AGENT_STAGNATION_MAX_TOKENS", "8")))
                .hasMessage("stagnation.max_tokens = 8 (from env AGENT_STAGNATION_MAX_TOKENS) is out of range:"
                        + " use a whole number from 16 to 8192");
        Path file = write("[stagnation]\nnovelty_threshold = 1.5\n");
        assertThat(failure(TestSources.none().project(file)))
                .hasMessage("stagnation.novelty_threshold = 1.5 (from project file " + file + ") is out of range:"
                        + " use a number from 0 to 1");
        assertThat(failure(TestSources.none().env("AGENT_STAGNATION_CHANT_REPEATS", "1")).getMessage())
                .startsWith("stagnation.chant_repeats = 1 (from env AGENT_STAGNATION_CHANT_REPEATS) is out of range");
        assertThat(failure(TestSources.none().flag("stagnation.sleep_s", "0", "--set stagnation.sleep_s")).getMessage())
                .startsWith("stagnation.sleep_s = 0 (from flag --set stagnation.sleep_s) is out of range");
    }

    @Test
    void aMethodThatIsNotOneOfTheThreeIsRefusedWithTheChoices() throws IOException {
        Path file = write("[stagnation]\nmethod = \"smart\"\n");

        assertThat(failure(TestSources.none().project(file)))
                .hasMessage("stagnation.method = smart (from project file " + file + ") is not a valid choice:"
                        + " use one of: llm, local, hybrid");
        assertThat(failure(TestSources.none().env("AGENT_STAGNATION_METHOD", "none")))
                .hasMessage("stagnation.method = none (from env AGENT_STAGNATION_METHOD) is not a valid choice:"
                        + " use one of: llm, local, hybrid");
    }

    @Test
    void nearIdenticalAboveAmbiguousHighIsRefusedNamingBothKeys() throws IOException {
        assertThat(failure(TestSources.none().env("AGENT_STAGNATION_NEAR_IDENTICAL", "0.95")))
                .hasMessage("stagnation.near_identical = 0.95 (from env AGENT_STAGNATION_NEAR_IDENTICAL) is above"
                        + " stagnation.ambiguous_high = 0.9 (from default): use a number from 0 to 0.9,"
                        + " or raise stagnation.ambiguous_high");
        Path file = write("[stagnation]\nambiguous_high = 0.1\n");
        assertThat(failure(TestSources.none().project(file)))
                .hasMessage("stagnation.near_identical = 0.15 (from default) is above stagnation.ambiguous_high = 0.1"
                        + " (from project file " + file + "): use a number from 0 to 0.1,"
                        + " or raise stagnation.ambiguous_high");
        StagnationSection equal = TestSources.none().env("AGENT_STAGNATION_NEAR_IDENTICAL", "0.9").load().config()
                .stagnation();
        assertThat(equal.nearIdentical()).as("an empty ambiguous band is allowed").isEqualTo(equal.ambiguousHigh());
    }

    @Test
    void agentConfigShowsEveryStagnationKeyWithItsOrigin() {
        List<String> lines = TestSources.none().env("AGENT_STAGNATION_SLEEP_S", "900").load().describe();

        for (ConfigKey key : ConfigKey.values()) {
            if (key.section().equals("stagnation")) {
                assertThat(lines).as(key.fullName()).anySatisfy(line -> assertThat(line)
                        .startsWith(key.fullName() + " ").endsWith(")"));
            }
        }
        assertThat(lines)
                .anySatisfy(line -> assertThat(line).matches("stagnation\\.method += hybrid +\\(default\\)"))
                .anySatisfy(line -> assertThat(line).matches("stagnation\\.model += +\\(default\\)"))
                .anySatisfy(line -> assertThat(line).matches("stagnation\\.near_identical += 0\\.15 +\\(default\\)"))
                .anySatisfy(line -> assertThat(line)
                        .matches("stagnation\\.sleep_s += 900 +\\(env AGENT_STAGNATION_SLEEP_S\\)"));
    }

    @Test
    void theMethodsSpellTheirConfigNames() {
        for (StagnationSection.Method method : StagnationSection.Method.values()) {
            assertThat(StagnationSection.Method.fromConfigName(" " + method.configName().toUpperCase(Locale.ROOT)))
                    .isEqualTo(method);
        }
        assertThat(StagnationSection.Method.HYBRID.configName()).isEqualTo("hybrid");
    }

    @Test
    void codeWrittenBeforeTheStagnationSectionStillBuildsAConfigWithItsDefaults() {
        AgentConfig d = AgentConfig.defaults();

        AgentConfig withSafety = new AgentConfig(d.agent(), d.llm(), d.cycle(), d.context(), d.run(), d.policy(),
                d.files(), d.shell(), d.cleanup(), d.safety());
        AgentConfig withoutSafety = new AgentConfig(d.agent(), d.llm(), d.cycle(), d.context(), d.run(), d.policy(),
                d.files(), d.shell(), d.cleanup());
        AgentConfig firstFive = new AgentConfig(d.agent(), d.llm(), d.cycle(), d.context(), d.run());

        assertThat(withSafety).isEqualTo(d);
        assertThat(withoutSafety).isEqualTo(d);
        assertThat(firstFive).isEqualTo(d);
    }
}
