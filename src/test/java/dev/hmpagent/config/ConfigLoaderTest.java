package dev.hmpagent.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    private Path write(String name, String toml) throws IOException {
        return Files.writeString(dir.resolve(name), toml);
    }

    @Test
    void nothingGivenYieldsTheBuiltInDefaultsWithDefaultOrigins() {
        LoadedConfig loaded = TestSources.none().load();

        assertThat(loaded.config()).isEqualTo(AgentConfig.defaults());
        assertThat(loaded.origins()).hasSize(ConfigKey.values().length);
        assertThat(loaded.origins().values()).containsOnly(Origin.builtInDefault());
    }

    @Test
    void defaultsMatchTheDocumentedValues() {
        AgentConfig c = AgentConfig.defaults();

        assertThat(c.agent().db()).isEqualTo(Path.of("agent.db"));
        assertThat(c.agent().name()).isEqualTo("hmp-agent");
        assertThat(c.llm().baseUrl()).isEqualTo("http://localhost:11434/v1");
        assertThat(c.llm().model()).isEqualTo("llama3.2");
        assertThat(c.llm().apiKey()).isEmpty();
        assertThat(c.llm().temperature()).isEqualTo(0.7);
        assertThat(c.llm().presencePenalty()).isZero();
        assertThat(c.llm().frequencyPenalty()).isZero();
        assertThat(c.llm().maxTokens()).isEqualTo(1024);
        assertThat(c.llm().stream()).isTrue();
        assertThat(c.llm().connectTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.llm().readTimeout()).isEqualTo(Duration.ofSeconds(120));
        assertThat(c.llm().maxBackoff()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.cycle().autonomous()).isFalse();
        assertThat(c.cycle().historyK()).isEqualTo(5);
        assertThat(c.cycle().pollInterval()).isEqualTo(Duration.ofMillis(500));
        assertThat(c.context().promptBudgetTokens()).isEqualTo(6000);
        assertThat(c.context().notesMode()).isEqualTo(NotesMode.AUTO);
        assertThat(c.context().notesLimit()).isEqualTo(20);
        assertThat(c.run().hz()).isEqualTo(1.0);
        assertThat(c.run().maxCatchUp()).isEqualTo(10);
        assertThat(c.cycle().maxIdle()).isEqualTo(Duration.ofSeconds(3600));
        assertThat(c.policy().shellDeny()).containsExactly("rm -rf /", "mkfs", "dd", "shutdown", "reboot");
        assertThat(c.policy().shellAsk()).isEmpty();
        assertThat(c.policy().shellAllow()).containsExactly("ls", "cat", "pwd", "echo", "grep", "head", "tail", "wc",
                "git status", "git log", "git diff");
        assertThat(c.files().roots()).isEmpty();
        assertThat(c.files().maxReadBytes()).isEqualTo(65536);
        assertThat(c.files().maxWriteBytes()).isEqualTo(1048576);
        assertThat(c.shell().timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.shell().maxTimeout()).isEqualTo(Duration.ofSeconds(600));
        assertThat(c.shell().maxProcesses()).isEqualTo(4);
        assertThat(c.shell().outputCapBytes()).isEqualTo(8192);
        assertThat(c.cleanup().minAgeTicks()).isEqualTo(100);
    }

    @Test
    void flagBeatsEnvBeatsProjectFileBeatsUserFileBeatsDefault() throws IOException {
        Path user = write("user.toml", "[llm]\nmodel = \"from-user\"\n");
        Path project = write("project.toml", "[llm]\nmodel = \"from-project\"\n");

        assertModel(TestSources.none(), "llama3.2", Origin.builtInDefault());
        assertModel(TestSources.none().user(user), "from-user", Origin.userFile(user));
        assertModel(TestSources.none().user(user).project(project), "from-project", Origin.projectFile(project));
        assertModel(TestSources.none().user(user).project(project).env("AGENT_LLM_MODEL", "from-env"),
                "from-env", Origin.env("AGENT_LLM_MODEL"));
        assertModel(TestSources.none().user(user).project(project).env("AGENT_LLM_MODEL", "from-env")
                .flag("llm.model", "from-flag", "--model"), "from-flag", Origin.flag("--model"));
    }

    private static void assertModel(TestSources sources, String model, Origin origin) {
        LoadedConfig loaded = sources.load();
        assertThat(loaded.config().llm().model()).isEqualTo(model);
        assertThat(loaded.origins()).containsEntry("llm.model", origin);
    }

    @Test
    void originsReadNaturally() {
        assertThat(Origin.env("OPENAI_API_KEY")).hasToString("env OPENAI_API_KEY");
        assertThat(Origin.builtInDefault()).hasToString("default");
        assertThat(Origin.projectFile(Path.of("./agent.toml"))).hasToString("project file ./agent.toml");
        assertThat(Origin.flag("--db")).hasToString("flag --db");
    }

    @Test
    void openAiVariablesAreHonoured() {
        LoadedConfig loaded = TestSources.none()
                .env("OPENAI_API_KEY", "sk-openai-0000000001")
                .env("OPENAI_BASE_URL", "https://api.openai.com/v1")
                .load();

        assertThat(loaded.config().llm().apiKey()).isEqualTo("sk-openai-0000000001");
        assertThat(loaded.config().llm().baseUrl()).isEqualTo("https://api.openai.com/v1");
        assertThat(loaded.origin(ConfigKey.LLM_API_KEY)).isEqualTo(Origin.env("OPENAI_API_KEY"));
        assertThat(loaded.origin(ConfigKey.LLM_BASE_URL)).isEqualTo(Origin.env("OPENAI_BASE_URL"));
    }

    @Test
    void agentVariablesBeatOpenAiVariables() {
        LoadedConfig loaded = TestSources.none()
                .env("OPENAI_API_KEY", "sk-openai-0000000001")
                .env("AGENT_LLM_API_KEY", "sk-agent-00000000002")
                .env("OPENAI_BASE_URL", "https://api.openai.com/v1")
                .env("AGENT_LLM_BASE_URL", "http://127.0.0.1:8080/v1")
                .load();

        assertThat(loaded.config().llm().apiKey()).isEqualTo("sk-agent-00000000002");
        assertThat(loaded.origin(ConfigKey.LLM_API_KEY)).isEqualTo(Origin.env("AGENT_LLM_API_KEY"));
        assertThat(loaded.config().llm().baseUrl()).isEqualTo("http://127.0.0.1:8080/v1");
    }

    @Test
    void agentDbHonoursBothItsVariablesShortOneFirst() {
        assertThat(TestSources.none().env("AGENT_AGENT_DB", "long.db").load().config().agent().db())
                .isEqualTo(Path.of("long.db"));
        LoadedConfig both = TestSources.none().env("AGENT_AGENT_DB", "long.db").env("AGENT_DB", "short.db").load();
        assertThat(both.config().agent().db()).isEqualTo(Path.of("short.db"));
        assertThat(both.origin(ConfigKey.AGENT_DB)).isEqualTo(Origin.env("AGENT_DB"));
    }

    @Test
    void emptyEnvValuesCountAsUnset() {
        LoadedConfig loaded = TestSources.none()
                .env("AGENT_LLM_API_KEY", "")
                .env("OPENAI_API_KEY", "sk-fallback-000000001")
                .env("AGENT_LLM_MODEL", "")
                .load();

        assertThat(loaded.config().llm().apiKey()).isEqualTo("sk-fallback-000000001");
        assertThat(loaded.config().llm().model()).isEqualTo("llama3.2");
        assertThat(loaded.origin(ConfigKey.LLM_MODEL)).isEqualTo(Origin.builtInDefault());
    }

    @Test
    void booleansFromEnvAcceptTrueFalseYesNoOneZeroInAnyCase() {
        for (String yes : new String[] {"true", "YES", "1", "True"}) {
            assertThat(TestSources.none().env("AGENT_CYCLE_AUTONOMOUS", yes).load().config().cycle().autonomous())
                    .as(yes).isTrue();
        }
        for (String no : new String[] {"false", "No", "0", "FALSE"}) {
            assertThat(TestSources.none().env("AGENT_LLM_STREAM", no).load().config().llm().stream())
                    .as(no).isFalse();
        }
    }

    @Test
    void everyKeyCanBeSetFromAFileAndLandsInTheRightField() throws IOException {
        Path project = write("agent.toml", """
                [agent]
                db = "/var/lib/agent/state.db"
                name = "scout"
                [llm]
                base_url = "https://api.openai.com/v1"
                model = "gpt-4o-mini"
                api_key = "sk-file-key-000000009"
                temperature = 1
                presence_penalty = -2
                frequency_penalty = 1.25
                max_tokens = 2048
                stream = false
                connect_timeout_s = 5
                read_timeout_s = 30
                max_backoff_s = 7
                call_deadline_s = 90
                give_up_s = 0
                provider = "Ollama"
                api_key_env = "GPU_BOX_KEY"
                failover_after = "90s"
                commands = "tools"
                registry = [{ id = "cloud", provider = "anthropic", model = "claude-haiku-4-5", priority = 5 },
                            { id = "box", base_url = "http://box:8080/v1", model = "qwen", commands = "tools" }]
                prices = [{ model = "claude-haiku-4-5", input = 1, output = 5 }]
                [llm.options]
                num_ctx = 8192
                [cycle]
                autonomous = true
                history_k = 0
                poll_ms = 10
                max_idle_s = 86400
                max_commands_per_reply = 7
                [context]
                prompt_budget_tokens = 500
                notes_mode = "MANUAL"
                notes_limit = 1000
                notes_min_priority = -3
                notes_tags = "urgent, ops"
                prompt_form = "compact"
                [run]
                hz = 0.5
                max_catch_up = 0
                [policy]
                shell_deny = ["rm"]
                shell_ask = ["git push", "npm"]
                shell_allow = ["*"]
                [files]
                roots = ["/srv/work", "notes"]
                max_read_bytes = 1
                max_write_bytes = 104857600
                [shell]
                timeout_s = 5
                max_timeout_s = 5
                max_processes = 64
                output_cap_bytes = 256
                env = ["GOPATH", "JAVA_HOME"]
                [cleanup]
                min_age_ticks = 1
                [safety]
                guide = "safety"
                token_budget = 1
                daily_token_budget = 1000000000
                tick_cap = 1
                alert_command = "logger -t agent"
                repeat_alert_at = 1
                repeat_lock_at = 2
                cascade_window = 1
                cascade_failures = 1
                loop_alert_at = 999
                loop_lock_at = 1000
                thrash_window = 2
                thrash_failures = 1
                no_progress_alert = 1
                no_progress_stop = 100000
                unanswered_messages = 10000
                [stagnation]
                method = "LLM"
                model = "gpt-4o-mini"
                max_tokens = 16
                near_identical = 0.5
                ambiguous_high = 0.5
                novelty_threshold = 1
                low_novelty_ticks = 1000
                repeat_window = 0
                no_growth_ticks = 10000
                no_stimulus_ticks = 0
                reflex = false
                rating_ticks = 1
                max_questions = 0
                sleep_s = 1
                task_switch_s = 604800
                chant_min_period = 5
                chant_repeats = 2
                [sandbox]
                mode = "required"
                network = "on"
                max_file_bytes = 4096
                max_processes = 8
                task_max_bytes = 1048576
                task_max_files = 100
                [mcp]
                allow = ["files.read_file"]
                ask = ["files"]
                deny = ["files.write_file"]
                catalogue_chars = 501
                [[mcp.servers]]
                name = "files"
                command = "node"
                args = ["server.js", "/srv/work"]
                env = { TOKEN = "FILES_TOKEN" }
                timeout_s = 9
                sandbox = false
                network = true
                read_only = ["/opt/mcp"]
                read_write = ["/srv/work"]
                [a2a]
                listen = "127.0.0.1:7420"
                tokens = ["OPS_TOKEN"]
                allow = ["helper"]
                ask = ["scout"]
                deny = ["spammer"]
                max_message_bytes = 2048
                rate_per_minute = 5
                max_depth = 2
                max_children = 1
                caller_tokens_per_day = 0
                """);

        AgentConfig expected = new AgentConfig(
                new AgentSection(Path.of("/var/lib/agent/state.db"), "scout"),
                new LlmSection(Provider.OLLAMA, "https://api.openai.com/v1", "gpt-4o-mini", "GPU_BOX_KEY",
                        "sk-file-key-000000009", 1.0, -2.0, 1.25, 2048, false, Duration.ofSeconds(5),
                        Duration.ofSeconds(30), Duration.ofSeconds(7), Duration.ofSeconds(90), Duration.ofSeconds(0),
                        Map.of("num_ctx", 8192L), FailoverAfter.seconds(90), List.of(
                                new RegistryEntry("cloud", Provider.ANTHROPIC, "https://api.anthropic.com",
                                        "claude-haiku-4-5", "ANTHROPIC_API_KEY", 5, Map.of(), ""),
                                new RegistryEntry("box", Provider.OPENAI, "http://box:8080/v1", "qwen", "", 2, Map.of(),
                                        "", CommandsMode.TOOLS)),
                        List.of(new ModelPrice("claude-haiku-4-5", 1.0, 1.0, 5.0)), CommandsMode.TOOLS),
                new CycleSection(true, 0, Duration.ofMillis(10), Duration.ofDays(1), 7),
                new ContextSection(500, NotesMode.MANUAL, 1000, -3, "urgent, ops", PromptForm.COMPACT),
                new RunSection(0.5, 0),
                new PolicySection(List.of("rm"), List.of("git push", "npm"), List.of("*")),
                new FilesSection(List.of(Path.of("/srv/work"), Path.of("notes")), 1, 104_857_600),
                new ShellSection(Duration.ofSeconds(5), Duration.ofSeconds(5), 64, 256, List.of("GOPATH", "JAVA_HOME")),
                new CleanupSection(1),
                new SafetySection("safety", 1, 1_000_000_000, 1, "logger -t agent", 1, 2, 1, 1, 999, 1000, 2, 1, 1, 100_000,
                        10_000),
                new StagnationSection(StagnationSection.Method.LLM, "gpt-4o-mini", 16, 0.5, 0.5, 1.0, 1000, 0, 10_000,
                        0, false, 1, 0, Duration.ofSeconds(1), Duration.ofDays(7), 5, 2),
                new SandboxSection(SandboxSection.Mode.REQUIRED, true, 4096, 8, 1_048_576, 100),
                new McpSection(List.of(new McpServerEntry("files", "node", List.of("server.js", "/srv/work"),
                        Map.of("TOKEN", "FILES_TOKEN"), "", Map.of(), Duration.ofSeconds(9), false, true,
                        List.of(Path.of("/opt/mcp")), List.of(Path.of("/srv/work")))),
                        List.of("files.read_file"), List.of("files"), List.of("files.write_file"), 501),
                new A2aSection("127.0.0.1:7420", List.of("OPS_TOKEN"), List.of("helper"), List.of("scout"),
                        List.of("spammer"), 2048, 5, 2, 1, 0));
        LoadedConfig loaded = TestSources.none().project(project).load();

        assertThat(loaded.config()).isEqualTo(expected);
        assertThat(loaded.origins().values()).containsOnly(Origin.projectFile(project));
    }

    @Test
    void flagsAreParsedFromTextAndLabelledByTheirKeyWhenNoLabelIsGiven() {
        LoadedConfig loaded = TestSources.none()
                .flag("llm.temperature", "1.5")
                .flag("cycle.poll_ms", "250", "--poll-ms")
                .flag("context.notes_mode", "manual")
                .load();

        assertThat(loaded.config().llm().temperature()).isEqualTo(1.5);
        assertThat(loaded.config().cycle().pollInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(loaded.config().context().notesMode()).isEqualTo(NotesMode.MANUAL);
        assertThat(loaded.origin(ConfigKey.LLM_TEMPERATURE)).isEqualTo(Origin.flag("llm.temperature"));
        assertThat(loaded.origin(ConfigKey.CYCLE_POLL_MS)).isEqualTo(Origin.flag("--poll-ms"));
    }

    @Test
    void missingDefaultProjectFileAndUserFileAreFine() {
        LoadedConfig loaded = TestSources.none()
                .project(dir.resolve("agent.toml"))
                .user(dir.resolve("nope/agent.toml"))
                .load();

        assertThat(loaded.config()).isEqualTo(AgentConfig.defaults());
    }

    @Test
    void anExistingExplicitConfigFileIsUsed() throws IOException {
        Path custom = write("custom.toml", "[agent]\nname = \"custom\"\n");

        LoadedConfig loaded = TestSources.none().explicitConfig(custom).load();

        assertThat(loaded.config().agent().name()).isEqualTo("custom");
        assertThat(loaded.origin(ConfigKey.AGENT_NAME)).isEqualTo(Origin.projectFile(custom));
    }

    @Test
    void emptyFilesAndCommentOnlyFilesChangeNothing() throws IOException {
        Path empty = write("empty.toml", "");
        Path comments = write("comments.toml", "# nothing here\n[llm]\n");

        assertThat(TestSources.none().user(empty).project(comments).load().config())
                .isEqualTo(AgentConfig.defaults());
    }
}
