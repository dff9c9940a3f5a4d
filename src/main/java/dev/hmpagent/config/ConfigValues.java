package dev.hmpagent.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Working set of the loader: one canonical value and its origin per key, later layers overriding. */
final class ConfigValues {
    private final EnumMap<ConfigKey, Object> values = new EnumMap<>(ConfigKey.class);
    private final EnumMap<ConfigKey, Origin> origins = new EnumMap<>(ConfigKey.class);

    /** Every key at its built-in default. */
    static ConfigValues defaults() {
        ConfigValues result = new ConfigValues();
        for (ConfigKey key : ConfigKey.values()) {
            try {
                result.set(key, key.type().parse(key.defaultValue()), Origin.builtInDefault());
            } catch (InvalidValueException e) {
                throw new IllegalStateException("built-in default of " + key.fullName() + " " + e.reason());
            }
        }
        return result;
    }

    void set(ConfigKey key, Object value, Origin origin) {
        values.put(Objects.requireNonNull(key), Objects.requireNonNull(value));
        origins.put(key, Objects.requireNonNull(origin));
    }

    /** Origins by dotted key name, in table order. */
    Map<String, Origin> origins() {
        Map<String, Origin> byName = new LinkedHashMap<>();
        origins.forEach((key, origin) -> byName.put(key.fullName(), origin));
        return Collections.unmodifiableMap(byName);
    }

    AgentConfig toConfig() {
        return new AgentConfig(
                new AgentSection(path(ConfigKey.AGENT_DB), string(ConfigKey.AGENT_NAME)),
                llm(),
                cycle(),
                context(),
                run(),
                policy(),
                files(),
                shell(),
                new CleanupSection((Long) get(ConfigKey.CLEANUP_MIN_AGE_TICKS)),
                safety(),
                stagnation(),
                sandbox(),
                new McpSection(mcpServers(), textList(ConfigKey.MCP_ALLOW), textList(ConfigKey.MCP_ASK),
                        textList(ConfigKey.MCP_DENY), integer(ConfigKey.MCP_CATALOGUE_CHARS)),
                new A2aSection(string(ConfigKey.A2A_LISTEN), textList(ConfigKey.A2A_TOKENS),
                        textList(ConfigKey.A2A_ALLOW), textList(ConfigKey.A2A_ASK), textList(ConfigKey.A2A_DENY),
                        integer(ConfigKey.A2A_MAX_MESSAGE_BYTES), integer(ConfigKey.A2A_RATE_PER_MINUTE),
                        integer(ConfigKey.A2A_MAX_DEPTH), integer(ConfigKey.A2A_MAX_CHILDREN),
                        (Long) get(ConfigKey.A2A_CALLER_TOKENS_PER_DAY)));
    }

    private LlmSection llm() {
        return new LlmSection(
                Provider.fromConfigName(string(ConfigKey.LLM_PROVIDER)),
                string(ConfigKey.LLM_BASE_URL),
                string(ConfigKey.LLM_MODEL),
                string(ConfigKey.LLM_API_KEY_ENV),
                string(ConfigKey.LLM_API_KEY),
                decimal(ConfigKey.LLM_TEMPERATURE),
                decimal(ConfigKey.LLM_PRESENCE_PENALTY),
                decimal(ConfigKey.LLM_FREQUENCY_PENALTY),
                integer(ConfigKey.LLM_MAX_TOKENS),
                bool(ConfigKey.LLM_STREAM),
                Duration.ofSeconds(integer(ConfigKey.LLM_CONNECT_TIMEOUT_S)),
                Duration.ofSeconds(integer(ConfigKey.LLM_READ_TIMEOUT_S)),
                Duration.ofSeconds(integer(ConfigKey.LLM_MAX_BACKOFF_S)),
                Duration.ofSeconds(integer(ConfigKey.LLM_CALL_DEADLINE_S)),
                Duration.ofSeconds(integer(ConfigKey.LLM_GIVE_UP_S)),
                options(ConfigKey.LLM_OPTIONS),
                (FailoverAfter) get(ConfigKey.LLM_FAILOVER_AFTER),
                LlmSection.registry(tables(ConfigKey.LLM_REGISTRY)),
                LlmSection.prices(tables(ConfigKey.LLM_PRICES)),
                CommandsMode.fromConfigName(string(ConfigKey.LLM_COMMANDS)));
    }

    private CycleSection cycle() {
        return new CycleSection(
                bool(ConfigKey.CYCLE_AUTONOMOUS),
                integer(ConfigKey.CYCLE_HISTORY_K),
                Duration.ofMillis(integer(ConfigKey.CYCLE_POLL_MS)),
                Duration.ofSeconds(integer(ConfigKey.CYCLE_MAX_IDLE_S)),
                integer(ConfigKey.CYCLE_MAX_COMMANDS_PER_REPLY));
    }

    private ContextSection context() {
        return new ContextSection(
                integer(ConfigKey.CONTEXT_PROMPT_BUDGET_TOKENS),
                NotesMode.fromConfigName(string(ConfigKey.CONTEXT_NOTES_MODE)),
                integer(ConfigKey.CONTEXT_NOTES_LIMIT),
                integer(ConfigKey.CONTEXT_NOTES_MIN_PRIORITY),
                string(ConfigKey.CONTEXT_NOTES_TAGS),
                PromptForm.fromConfigName(string(ConfigKey.CONTEXT_PROMPT_FORM)));
    }

    private RunSection run() {
        return new RunSection(
                decimal(ConfigKey.RUN_HZ),
                integer(ConfigKey.RUN_MAX_CATCH_UP));
    }

    private PolicySection policy() {
        return new PolicySection(
                list(ConfigKey.POLICY_SHELL_DENY, String.class),
                list(ConfigKey.POLICY_SHELL_ASK, String.class),
                list(ConfigKey.POLICY_SHELL_ALLOW, String.class));
    }

    private FilesSection files() {
        return new FilesSection(
                list(ConfigKey.FILES_ROOTS, Path.class),
                integer(ConfigKey.FILES_MAX_READ_BYTES),
                integer(ConfigKey.FILES_MAX_WRITE_BYTES));
    }

    private ShellSection shell() {
        return new ShellSection(
                Duration.ofSeconds(integer(ConfigKey.SHELL_TIMEOUT_S)),
                Duration.ofSeconds(integer(ConfigKey.SHELL_MAX_TIMEOUT_S)),
                integer(ConfigKey.SHELL_MAX_PROCESSES),
                integer(ConfigKey.SHELL_OUTPUT_CAP_BYTES),
                list(ConfigKey.SHELL_ENV, String.class));
    }

    private SafetySection safety() {
        return new SafetySection(
                string(ConfigKey.SAFETY_GUIDE),
                whole(ConfigKey.SAFETY_TOKEN_BUDGET),
                whole(ConfigKey.SAFETY_DAILY_TOKEN_BUDGET),
                integer(ConfigKey.SAFETY_TICK_CAP),
                string(ConfigKey.SAFETY_ALERT_COMMAND),
                integer(ConfigKey.SAFETY_REPEAT_ALERT_AT),
                integer(ConfigKey.SAFETY_REPEAT_LOCK_AT),
                integer(ConfigKey.SAFETY_CASCADE_WINDOW),
                integer(ConfigKey.SAFETY_CASCADE_FAILURES),
                integer(ConfigKey.SAFETY_LOOP_ALERT_AT),
                integer(ConfigKey.SAFETY_LOOP_LOCK_AT),
                integer(ConfigKey.SAFETY_THRASH_WINDOW),
                integer(ConfigKey.SAFETY_THRASH_FAILURES),
                integer(ConfigKey.SAFETY_NO_PROGRESS_ALERT),
                integer(ConfigKey.SAFETY_NO_PROGRESS_STOP),
                integer(ConfigKey.SAFETY_UNANSWERED_MESSAGES));
    }

    private StagnationSection stagnation() {
        return new StagnationSection(
                StagnationSection.Method.fromConfigName(string(ConfigKey.STAGNATION_METHOD)),
                string(ConfigKey.STAGNATION_MODEL),
                integer(ConfigKey.STAGNATION_MAX_TOKENS),
                decimal(ConfigKey.STAGNATION_NEAR_IDENTICAL),
                decimal(ConfigKey.STAGNATION_AMBIGUOUS_HIGH),
                decimal(ConfigKey.STAGNATION_NOVELTY_THRESHOLD),
                integer(ConfigKey.STAGNATION_LOW_NOVELTY_TICKS),
                integer(ConfigKey.STAGNATION_REPEAT_WINDOW),
                integer(ConfigKey.STAGNATION_NO_GROWTH_TICKS),
                integer(ConfigKey.STAGNATION_NO_STIMULUS_TICKS),
                bool(ConfigKey.STAGNATION_REFLEX),
                integer(ConfigKey.STAGNATION_RATING_TICKS),
                integer(ConfigKey.STAGNATION_MAX_QUESTIONS),
                Duration.ofSeconds(integer(ConfigKey.STAGNATION_SLEEP_S)),
                Duration.ofSeconds(integer(ConfigKey.STAGNATION_TASK_SWITCH_S)),
                integer(ConfigKey.STAGNATION_CHANT_MIN_PERIOD),
                integer(ConfigKey.STAGNATION_CHANT_REPEATS));
    }

    private SandboxSection sandbox() {
        return new SandboxSection(
                SandboxSection.Mode.fromConfigName(string(ConfigKey.SANDBOX_MODE)),
                string(ConfigKey.SANDBOX_NETWORK).equals("on"),
                whole(ConfigKey.SANDBOX_MAX_FILE_BYTES),
                integer(ConfigKey.SANDBOX_MAX_PROCESSES),
                whole(ConfigKey.SANDBOX_TASK_MAX_BYTES),
                whole(ConfigKey.SANDBOX_TASK_MAX_FILES));
    }

    private Object get(ConfigKey key) {
        Object value = values.get(key);
        if (value == null) {
            throw new IllegalStateException("no value for " + key.fullName());
        }
        return value;
    }

    private String string(ConfigKey key) {
        return (String) get(key);
    }

    /** llm.registry as records, for checks before the config is whole. */
    List<RegistryEntry> registry() {
        return LlmSection.registry(tables(ConfigKey.LLM_REGISTRY));
    }

    /** mcp.servers as records, for checks before the config is whole. */
    List<McpServerEntry> mcpServers() {
        return McpServerEntry.fromTables(tables(ConfigKey.MCP_SERVERS));
    }

    /** Entry {@code i} of mcp.servers as written (which fields it gives). */
    Map<String, Object> mcpTable(int i) {
        return tables(ConfigKey.MCP_SERVERS).get(i);
    }

    /** A list of text as written. */
    List<String> textList(ConfigKey key) {
        return list(key, String.class);
    }

    /** The text value of {@code key}, for checks that need one key before the config is whole. */
    String text(ConfigKey key) {
        return string(key);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> options(ConfigKey key) {
        return (Map<String, Object>) get(key);
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> tables(ConfigKey key) {
        return (List<Map<String, Object>>) get(key);
    }

    private Path path(ConfigKey key) {
        return (Path) get(key);
    }

    private boolean bool(ConfigKey key) {
        return (Boolean) get(key);
    }

    double decimal(ConfigKey key) {
        return (Double) get(key);
    }

    private <T> List<T> list(ConfigKey key, Class<T> elementType) {
        List<T> typed = new ArrayList<>();
        for (Object element : (List<?>) get(key)) {
            typed.add(elementType.cast(element));
        }
        return List.copyOf(typed);
    }

    /** The value of {@code key} as text, for messages that name two keys. */
    String display(ConfigKey key) {
        return key.type().display(get(key));
    }

    Origin origin(ConfigKey key) {
        return origins.get(key);
    }

    long whole(ConfigKey key) {
        return (Long) get(key);
    }

    private int integer(ConfigKey key) {
        return Math.toIntExact((Long) get(key));
    }
}
