package dev.hmpagent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigValidationTest {
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
    void outOfRangeNumberInAFileNamesKeyValueFileAndRange() throws IOException {
        Path file = write("[llm]\ntemperature = 5\n");

        assertThat(failure(TestSources.none().project(file)))
                .hasMessage("llm.temperature = 5 (from project file " + file
                        + ") is out of range: use a number from 0 to 2");
    }

    @Test
    void runHzOutsideOneTenthToFiftyIsRefusedWithItsRange() throws IOException {
        Path file = write("[run]\nhz = 0.05\n");

        assertThat(failure(TestSources.none().project(file)))
                .hasMessage("run.hz = 0.05 (from project file " + file + ") is out of range: use a number from 0.1 to 50");
        assertThat(failure(TestSources.none().env("AGENT_RUN_HZ", "51")).getMessage())
                .startsWith("run.hz = 51 (from env AGENT_RUN_HZ) is out of range");
        assertThat(failure(TestSources.none().env("AGENT_RUN_MAX_CATCH_UP", "1001")).getMessage())
                .isEqualTo("run.max_catch_up = 1001 (from env AGENT_RUN_MAX_CATCH_UP) is out of range:"
                        + " use a whole number from 0 to 1000");
    }

    @Test
    void shellEnvTakesOnlyVariableNames() throws IOException {
        Path file = write("[shell]\nenv = [\"GOPATH\", \"MY VAR\"]\n");

        assertThat(failure(TestSources.none().project(file)).getMessage())
                .startsWith("shell.env = [\"GOPATH\",\"MY VAR\"] (from project file " + file + ") has element 2 that"
                        + " is not the name of an environment variable");
    }

    @Test
    void outOfRangeWholeNumberFromEnvNamesTheVariable() {
        assertThat(failure(TestSources.none().env("AGENT_LLM_MAX_TOKENS", "0")))
                .hasMessage("llm.max_tokens = 0 (from env AGENT_LLM_MAX_TOKENS) is out of range:"
                        + " use a whole number from 1 to 1000000");
    }

    @Test
    void fractionWhereAWholeNumberIsNeededIsRejected() {
        assertThat(failure(TestSources.none().flag("cycle.history_k", "2.5", "--history-k")).getMessage())
                .startsWith("cycle.history_k = 2.5 (from flag --history-k) is not a whole number");
    }

    @Test
    void urlsMustBeAbsoluteHttpOrHttps() {
        for (String bad : new String[] {"localhost:11434/v1", "ftp://example.com/v1", "/v1", "http://", "http://a b"}) {
            assertThat(failure(TestSources.none().env("AGENT_LLM_BASE_URL", bad)).getMessage())
                    .as(bad)
                    .startsWith("llm.base_url = ")
                    .contains("(from env AGENT_LLM_BASE_URL)")
                    .endsWith("use an absolute http:// or https:// URL such as http://localhost:11434/v1");
        }
    }

    @Test
    void unknownNotesModeListsTheChoices() {
        assertThat(failure(TestSources.none().env("AGENT_CONTEXT_NOTES_MODE", "smart")))
                .hasMessage("context.notes_mode = smart (from env AGENT_CONTEXT_NOTES_MODE)"
                        + " is not a valid choice: use one of: auto, manual");
    }

    @Test
    void commandsTakeJsonForTheMainLlmAndARegistryEntryAndNothingElse() throws IOException {
        Path file = write("[llm]\ncommands = \"json\"\nregistry = [{ id = \"box\", model = \"qwen\","
                + " commands = \"json\" }]\n");

        AgentConfig c = TestSources.none().project(file).load().config();

        assertThat(c.llm().commands()).isEqualTo(CommandsMode.JSON);
        assertThat(c.llm().registry().get(0).commands()).isEqualTo(CommandsMode.JSON);
        assertThat(failure(TestSources.none().env("AGENT_LLM_COMMANDS", "grammar")))
                .hasMessage("llm.commands = grammar (from env AGENT_LLM_COMMANDS)"
                        + " is not a valid choice: use one of: block, tools, json");
    }

    @Test
    void anthropicTakesNoJsonCommandsAndIsToldToUseTools() throws IOException {
        Path file = write("[llm]\nprovider = \"anthropic\"\nmodel = \"claude-haiku-4-5\"\ncommands = \"json\"\n");

        assertThat(failure(TestSources.none().project(file)))
                .hasMessage("llm.commands = \"json\" (from project file " + file + ") is a form provider anthropic"
                        + " does not offer: its Messages API cannot keep a reply to a JSON schema; set commands ="
                        + " \"tools\" (its native tool calls) or \"block\"");
        Path entry = write("[llm]\nregistry = [{ id = \"cloud\", provider = \"anthropic\", model = \"claude\","
                + " commands = \"json\" }]\n");
        assertThat(failure(TestSources.none().project(entry)).getMessage())
                .startsWith("llm.registry entry 1 (from project file " + entry + ") has commands = \"json\", a form"
                        + " provider anthropic does not offer").contains("set commands = \"tools\"");
    }

    @Test
    void stringWhereANumberIsExpectedInTomlIsAWrongTypeError() throws IOException {
        Path file = write("[llm]\nmax_tokens = \"many\"\n");

        assertThat(failure(TestSources.none().project(file)))
                .hasMessage("llm.max_tokens = many (from project file " + file
                        + ") has the wrong type (string): use a whole number from 1 to 1000000");
    }

    @Test
    void quotedBooleanInTomlIsAWrongTypeError() throws IOException {
        Path file = write("[llm]\nstream = \"yes\"\n");

        assertThat(failure(TestSources.none().user(file)).getMessage())
                .startsWith("llm.stream = yes (from user file " + file + ") has the wrong type (string)");
    }

    @Test
    void badBooleanInEnvIsRejected() {
        assertThat(failure(TestSources.none().env("AGENT_LLM_STREAM", "maybe")).getMessage())
                .startsWith("llm.stream = maybe (from env AGENT_LLM_STREAM) is not a boolean: use true or false");
    }

    @Test
    void emptyRequiredStringIsRejected() {
        assertThat(failure(TestSources.none().flag("llm.model", "", "--model")).getMessage())
                .startsWith("llm.model = \"\" (from flag --model) is empty");
    }

    @Test
    void unknownKeyInAFileSuggestsTheNearestKeyAndTheExampleFile() throws IOException {
        Path file = write("[llm]\nmodle = \"x\"\n");

        assertThat(failure(TestSources.none().project(file)))
                .hasMessage("unknown key llm.modle in " + file
                        + " (did you mean llm.model?); see agent.example.toml for all keys");
    }

    @Test
    void keyOutsideItsTableSuggestsTheTableItBelongsIn() throws IOException {
        Path file = write("model = \"x\"\n");

        assertThat(failure(TestSources.none().project(file)).getMessage())
                .startsWith("unknown key model in " + file + " (did you mean llm.model?)");
    }

    @Test
    void unknownKeyFarFromAnyKnownOneStillPointsAtTheExampleFile() throws IOException {
        Path file = write("[tools]\nshell = true\n");

        assertThat(failure(TestSources.none().user(file)))
                .hasMessage("unknown key tools.shell in " + file + "; see agent.example.toml for all keys");
    }

    @Test
    void unknownFlagKeyIsRejected() {
        assertThat(failure(TestSources.none().flag("llm.temprature", "1")).getMessage())
                .startsWith("unknown key llm.temprature given on the command line (did you mean llm.temperature?)");
    }

    @Test
    void unparsableTomlNamesTheFileAndTheLine() throws IOException {
        Path file = write("[agent]\nname = \"ok\"\n[llm\nmodel = \"x\"\n");

        assertThat(failure(TestSources.none().project(file)).getMessage())
                .startsWith("cannot parse config file " + file + ": line 3");
    }

    @Test
    void missingExplicitConfigFileIsAnError() {
        Path missing = dir.resolve("missing.toml");

        assertThat(failure(TestSources.none().explicitConfig(missing)))
                .hasMessage("config file " + missing + " (given by --config) does not exist");
    }

    @Test
    void badValueInALowerLayerIsReportedEvenWhenOverridden() throws IOException {
        Path file = write("[cycle]\npoll_ms = 1\n");

        assertThatThrownBy(() -> TestSources.none().user(file).env("AGENT_CYCLE_POLL_MS", "100").load())
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("cycle.poll_ms = 1 (from user file ");
    }

    @Test
    void secretOfTheWrongTypeIsMaskedInTheError() throws IOException {
        Path file = write("[llm]\napi_key = 123456789012345678901234\n");

        ConfigException e = failure(TestSources.none().project(file));

        assertThat(e.getMessage())
                .startsWith("llm.api_key = ****1234 (from project file ")
                .doesNotContain("123456789012345678901234");
    }

    @Test
    void multiLineValuesAreShownOnOneLine() throws IOException {
        Path file = write("[llm]\nbase_url = '''\nnot a url'''\n");

        assertThat(failure(TestSources.none().project(file)).getMessage())
                .startsWith("llm.base_url = not a url (from project file ");
    }
}
