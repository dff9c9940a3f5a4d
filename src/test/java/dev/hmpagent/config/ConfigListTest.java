package dev.hmpagent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** List values (shell rules, file roots) and the other keys that bound what the LLM may do. */
class ConfigListTest {
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
    void aTomlArrayOfStringsBecomesTheRuleListInOrderWithItsFileAsOrigin() throws IOException {
        Path file = write("[policy]\nshell_allow = [\"ls\", \"git  status\", \" make test \"]\n");

        LoadedConfig loaded = TestSources.none().project(file).load();

        assertThat(loaded.config().policy().shellAllow()).containsExactly("ls", "git status", "make test");
        assertThat(loaded.origin(ConfigKey.POLICY_SHELL_ALLOW)).isEqualTo(Origin.projectFile(file));
        assertThat(loaded.config().policy().shellDeny()).as("untouched keys keep their default")
                .contains("rm -rf /");
    }

    @Test
    void anEmptyArrayIsAnEmptyList() throws IOException {
        Path file = write("[policy]\nshell_allow = []\n");

        assertThat(TestSources.none().project(file).load().config().policy().shellAllow()).isEmpty();
    }

    @Test
    void anEnvVarIsACommaSeparatedListWithSpacesAroundItemsIgnored() {
        LoadedConfig loaded = TestSources.none()
                .env("AGENT_POLICY_SHELL_DENY", "rm, git push ,curl")
                .env("AGENT_FILES_ROOTS", "/srv/a,/srv/b")
                .load();

        assertThat(loaded.config().policy().shellDeny()).containsExactly("rm", "git push", "curl");
        assertThat(loaded.config().files().roots()).containsExactly(Path.of("/srv/a"), Path.of("/srv/b"));
        assertThat(loaded.origin(ConfigKey.FILES_ROOTS)).isEqualTo(Origin.env("AGENT_FILES_ROOTS"));
    }

    @Test
    void anEnvVarMayBeATomlArrayForItemsWithCommasOrForNone() {
        assertThat(TestSources.none().env("AGENT_POLICY_SHELL_ASK", "[\"grep a,b\", \"ls\"]").load()
                .config().policy().shellAsk()).containsExactly("grep a,b", "ls");
        assertThat(TestSources.none().env("AGENT_POLICY_SHELL_ALLOW", "[]").load()
                .config().policy().shellAllow()).isEmpty();
    }

    @Test
    void aFlagIsParsedLikeAnEnvVar() {
        assertThat(TestSources.none().flag("policy.shell_allow", "ls,cat", "--allow").load()
                .config().policy().shellAllow()).containsExactly("ls", "cat");
    }

    @Test
    void aStrayCommaIsAnEmptyElementNamedByPositionNeverAnAllowAllRule() {
        assertThat(failure(TestSources.none().env("AGENT_POLICY_SHELL_ALLOW", "ls,,cat")))
                .hasMessage("policy.shell_allow = ls,,cat (from env AGENT_POLICY_SHELL_ALLOW) has element 2 that"
                        + " is empty: use an array of command prefixes such as [\"a\", \"b\"]"
                        + " (env vars and flags: comma-separated, or [] for none)");
        assertThat(failure(TestSources.none().env("AGENT_POLICY_SHELL_ALLOW", "ls,")).getMessage())
                .contains("has element 2 that is empty");
    }

    @Test
    void anElementOfTheWrongTypeInTomlNamesItsPositionAndType() throws IOException {
        Path file = write("[policy]\nshell_deny = [\"rm\", 3]\n");

        assertThat(failure(TestSources.none().project(file)).getMessage())
                .startsWith("policy.shell_deny = [\"rm\",3] (from project file " + file + ") has element 2 that"
                        + " has the wrong type (integer): use an array of command prefixes");
    }

    @Test
    void aStringWhereAListIsExpectedInTomlIsAWrongTypeError() throws IOException {
        Path file = write("[files]\nroots = \"/srv/work\"\n");

        assertThat(failure(TestSources.none().project(file)).getMessage())
                .startsWith("files.roots = /srv/work (from project file " + file + ") has the wrong type (string):"
                        + " use an array of directory paths");
    }

    @Test
    void aRuleWithANewlineOrAnEmptyStringInTomlIsRefused() throws IOException {
        Path newline = write("[policy]\nshell_allow = [\"ls\\nrm\"]\n");
        assertThat(failure(TestSources.none().project(newline)).getMessage())
                .startsWith("policy.shell_allow = [\"ls\\nrm\"] (from project file ")
                .contains("has element 1 that contains a control character");

        Path empty = write("[policy]\nshell_allow = [\"\"]\n");
        assertThat(failure(TestSources.none().project(empty)).getMessage()).contains("has element 1 that is empty");
    }

    @Test
    void aBrokenTomlArrayInAnEnvVarIsRefusedWithoutEchoingMoreThanTheValue() {
        assertThat(failure(TestSources.none().env("AGENT_POLICY_SHELL_ALLOW", "[\"ls\"")).getMessage())
                .startsWith("policy.shell_allow = [\"ls\" (from env AGENT_POLICY_SHELL_ALLOW) is not a valid TOML array");
    }

    @Test
    void aRootThatIsNoPathIsRefused() {
        assertThat(failure(TestSources.none().env("AGENT_FILES_ROOTS", "/srv/a, ")).getMessage())
                .contains("files.roots").contains("has element 2 that is empty");
    }

    @Test
    void theNewNumbersAreRangeChecked() {
        assertThat(failure(TestSources.none().env("AGENT_CYCLE_MAX_IDLE_S", "0")))
                .hasMessage("cycle.max_idle_s = 0 (from env AGENT_CYCLE_MAX_IDLE_S) is out of range:"
                        + " use a whole number from 1 to 86400");
        assertThat(failure(TestSources.none().env("AGENT_CYCLE_MAX_IDLE_S", "86401")).getMessage())
                .contains("is out of range");
        assertThat(failure(TestSources.none().env("AGENT_CLEANUP_MIN_AGE_TICKS", "0")).getMessage())
                .startsWith("cleanup.min_age_ticks = 0 (from env AGENT_CLEANUP_MIN_AGE_TICKS) is out of range");
        assertThat(failure(TestSources.none().env("AGENT_SHELL_MAX_PROCESSES", "0")).getMessage())
                .startsWith("shell.max_processes = 0");
        assertThat(failure(TestSources.none().env("AGENT_FILES_MAX_READ_BYTES", "-1")).getMessage())
                .startsWith("files.max_read_bytes = -1");
    }

    @Test
    void aDefaultTimeoutAboveTheMaximumNamesBothKeysAndWhereTheyCameFrom() {
        assertThat(failure(TestSources.none().env("AGENT_SHELL_TIMEOUT_S", "900")))
                .hasMessage("shell.timeout_s = 900 (from env AGENT_SHELL_TIMEOUT_S) is above shell.max_timeout_s = 600"
                        + " (from default): lower the one or raise the other");
        assertThat(TestSources.none().env("AGENT_SHELL_TIMEOUT_S", "900").env("AGENT_SHELL_MAX_TIMEOUT_S", "900")
                .load().config().shell().timeout()).isEqualTo(Duration.ofSeconds(900));
    }

    @Test
    void codeWrittenBeforeTheNewSectionsStillBuildsAConfigWithTheirDefaults() {
        AgentConfig d = AgentConfig.defaults();

        AgentConfig built = new AgentConfig(d.agent(), d.llm(),
                new CycleSection(true, 3, Duration.ofMillis(100)), d.context(), d.run());

        assertThat(built.policy()).isEqualTo(d.policy());
        assertThat(built.files()).isEqualTo(d.files());
        assertThat(built.shell()).isEqualTo(d.shell());
        assertThat(built.cleanup()).isEqualTo(d.cleanup());
        assertThat(built.cycle().maxIdle()).isEqualTo(d.cycle().maxIdle());
    }

    @Test
    void listsInARecordCannotBeChangedAfterLoading() {
        AgentConfig d = AgentConfig.defaults();

        assertThat(d.policy().shellAllow()).isUnmodifiable();
        assertThat(d.files().roots()).isUnmodifiable();
    }
}
