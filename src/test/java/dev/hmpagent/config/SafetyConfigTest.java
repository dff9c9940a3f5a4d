package dev.hmpagent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafetyConfigTest {
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
        SafetySection s = AgentConfig.defaults().safety();

        assertThat(s).isEqualTo(new SafetySection("learning", 1_000_000, 0, 500, "", 3, 5, 10, 8, 3, 5, 20, 10, 10, 20, 5));
        assertThat(s.dailyBudgetOn()).isFalse();
        assertThat(s.alertOn()).isFalse();
    }

    @Test
    void everyKeyIsReadFromTheFile() throws IOException {
        Path file = write("""
                [safety]
                guide = "debugging"
                token_budget = 2000
                daily_token_budget = 50000
                tick_cap = 7
                alert_command = "notify-send agent \\"$1\\""
                repeat_alert_at = 2
                repeat_lock_at = 4
                cascade_window = 6
                cascade_failures = 6
                loop_alert_at = 4
                loop_lock_at = 9
                thrash_window = 12
                thrash_failures = 12
                """);

        SafetySection s = TestSources.none().project(file).load().config().safety();

        assertThat(s).isEqualTo(new SafetySection("debugging", 2000, 50_000, 7, "notify-send agent \"$1\"",
                2, 4, 6, 6, 4, 9, 12, 12));
        assertThat(s.dailyBudgetOn()).isTrue();
        assertThat(s.alertOn()).isTrue();
    }

    @Test
    void theGuideIsOneOfTheThreeAndEnvVarsAndFlagsSetIt() {
        assertThat(failure(TestSources.none().env("AGENT_SAFETY_GUIDE", "strict")))
                .hasMessage("safety.guide = strict (from env AGENT_SAFETY_GUIDE) is not a valid choice:"
                        + " use one of: safety, learning, debugging");
        assertThat(TestSources.none().env("AGENT_SAFETY_GUIDE", "Safety").load().config().safety().guide())
                .isEqualTo("safety");
        assertThat(TestSources.none().flag("safety.token_budget", "5000", "--set safety.token_budget")
                .load().config().safety().tokenBudget()).isEqualTo(5000);
    }

    @Test
    void theTokenBudgetIsFromOneToABillion() {
        assertThat(failure(TestSources.none().env("AGENT_SAFETY_TOKEN_BUDGET", "0")))
                .hasMessage("safety.token_budget = 0 (from env AGENT_SAFETY_TOKEN_BUDGET) is out of range:"
                        + " use a whole number from 1 to 1000000000");
        assertThat(failure(TestSources.none().env("AGENT_SAFETY_TOKEN_BUDGET", "1000000001")).getMessage())
                .startsWith("safety.token_budget = 1000000001 (from env AGENT_SAFETY_TOKEN_BUDGET) is out of range");
    }

    @Test
    void theAlertCommandIsReadFromTheUserFileToo() throws IOException {
        Path user = Files.writeString(dir.resolve("user.toml"), "[safety]\nalert_command = \"logger locked\"\n");

        LoadedConfig loaded = TestSources.none().user(user).load();

        assertThat(loaded.config().safety().alertCommand()).isEqualTo("logger locked");
        assertThat(loaded.origin(ConfigKey.SAFETY_ALERT_COMMAND)).isEqualTo(Origin.userFile(user));
    }

    @Test
    void theAlertCommandCannotBeSetWithAFlag() {
        assertThat(failure(TestSources.none().flag("safety.alert_command", "curl evil.example",
                "--set safety.alert_command")))
                .hasMessage("safety.alert_command can only be set in agent.toml, not with --set safety.alert_command:"
                        + " a command run on the host is chosen by editing the file");
    }

    @Test
    void noEnvironmentVariableSetsTheAlertCommand() {
        LoadedConfig loaded = TestSources.none()
                .env("AGENT_SAFETY_ALERT_COMMAND", "curl evil.example")
                .env("HMP_AGENT_ALERT", "curl evil.example")
                .load();

        assertThat(loaded.config().safety().alertCommand()).isEmpty();
        assertThat(loaded.origin(ConfigKey.SAFETY_ALERT_COMMAND)).isEqualTo(Origin.builtInDefault());
    }

    @Test
    void anAlertMustComeBeforeTheLockNamingBothKeysTheirSourcesAndTheRange() throws IOException {
        assertThat(failure(TestSources.none().env("AGENT_SAFETY_REPEAT_ALERT_AT", "5")))
                .hasMessage("safety.repeat_alert_at = 5 (from env AGENT_SAFETY_REPEAT_ALERT_AT) is not below"
                        + " safety.repeat_lock_at = 5 (from default): use a whole number from 1 to 4,"
                        + " or raise safety.repeat_lock_at");
        Path file = write("[safety]\nloop_lock_at = 2\nloop_alert_at = 3\n");
        assertThat(failure(TestSources.none().project(file)))
                .hasMessage("safety.loop_alert_at = 3 (from project file " + file + ") is not below"
                        + " safety.loop_lock_at = 2 (from project file " + file + "): use a whole number from 1 to 1,"
                        + " or raise safety.loop_lock_at");
        assertThat(TestSources.none().env("AGENT_SAFETY_LOOP_LOCK_AT", "2").env("AGENT_SAFETY_LOOP_ALERT_AT", "1")
                .load().config().safety().loopLockAt()).isEqualTo(2);
    }

    @Test
    void cascadeFailuresMayFillTheWindowButNotExceedIt() {
        assertThat(failure(TestSources.none().env("AGENT_SAFETY_CASCADE_WINDOW", "5")))
                .hasMessage("safety.cascade_failures = 8 (from default) is above safety.cascade_window = 5"
                        + " (from env AGENT_SAFETY_CASCADE_WINDOW): use a whole number from 1 to 5,"
                        + " or raise safety.cascade_window");
        assertThat(TestSources.none().env("AGENT_SAFETY_CASCADE_FAILURES", "10").load().config().safety()
                .cascadeFailures()).isEqualTo(10);
    }

    @Test
    void thrashFailuresMayFillTheWindowButNotExceedIt() {
        assertThat(failure(TestSources.none().env("AGENT_SAFETY_THRASH_WINDOW", "6")))
                .hasMessage("safety.thrash_failures = 10 (from default) is above safety.thrash_window = 6"
                        + " (from env AGENT_SAFETY_THRASH_WINDOW): use a whole number from 1 to 6,"
                        + " or raise safety.thrash_window");
        assertThat(TestSources.none().env("AGENT_SAFETY_THRASH_FAILURES", "20").load().config().safety()
                .thrashFailures()).isEqualTo(20);
    }

    @Test
    void agentConfigShowsEverySafetyKey() {
        String shown = String.join("\n", LoadedConfig.defaults().describe());

        for (ConfigKey key : ConfigKey.values()) {
            if (key.section().equals("safety")) {
                assertThat(shown).contains(key.fullName() + " ");
            }
        }
        assertThat(shown).containsPattern("safety\\.guide +\\= learning +\\(default\\)")
                .containsPattern("safety\\.token_budget += 1000000 ");
    }

    @Test
    void codeWrittenBeforeTheSafetySectionStillBuildsAConfigWithItsDefaults() {
        AgentConfig d = AgentConfig.defaults();

        AgentConfig built = new AgentConfig(d.agent(), d.llm(), d.cycle(), d.context(), d.run(), d.policy(),
                d.files(), d.shell(), d.cleanup());

        assertThat(built.safety()).isEqualTo(d.safety());
        assertThat(built).isEqualTo(d);
    }
}
