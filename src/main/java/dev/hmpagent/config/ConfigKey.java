package dev.hmpagent.config;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The single table of configuration keys. Loading, validation, {@code agent config} output and the
 * example-file test all derive from it. To add a key: add a row here, a field to the matching
 * section record, a line in {@link ConfigValues#toConfig()} and the key in agent.example.toml. Keys
 * that bound the LLM (policy, files, shell, cleanup, safety) live only here: agent.toml, env and flags set
 * them; the LLM-writable {@code config} table is a different thing and never reaches them.
 */
public enum ConfigKey {
    AGENT_DB("agent.db", ValueType.path(), "agent.db",
            List.of("AGENT_DB", "AGENT_AGENT_DB"), false,
            "SQLite file that holds the agent's whole state",
            c -> c.agent().db()),
    AGENT_NAME("agent.name", ValueType.text(true), "hmp-agent",
            List.of("AGENT_AGENT_NAME"), false,
            "Name the agent uses for itself",
            c -> c.agent().name()),
    LLM_PROVIDER("llm.provider", ValueType.choice("openai", "ollama", "anthropic"), "openai",
            List.of("AGENT_LLM_PROVIDER"), false,
            "Wire protocol of the LLM: openai (any OpenAI-compatible server: OpenAI, Ollama's /v1, LM Studio, vLLM,"
                    + " llama.cpp, OpenRouter), ollama (Ollama's native /api/chat, for llm.options) or anthropic"
                    + " (the messages API); the default base URL and key variable follow it",
            c -> c.llm().provider().configName()),
    LLM_BASE_URL("llm.base_url", ValueType.httpUrl(), "http://localhost:11434/v1",
            List.of("AGENT_LLM_BASE_URL"), false,
            "Base URL of the API; set nowhere, it follows the provider: openai reads OPENAI_BASE_URL, else OLLAMA_HOST"
                    + " (+ /v1), else http://localhost:11434/v1; ollama reads OLLAMA_HOST, else http://localhost:11434;"
                    + " anthropic reads ANTHROPIC_BASE_URL, else https://api.anthropic.com",
            c -> c.llm().baseUrl()),
    LLM_MODEL("llm.model", ValueType.text(true), "llama3.2",
            List.of("AGENT_LLM_MODEL"), false,
            "Model name sent with each request",
            c -> c.llm().model()),
    LLM_API_KEY_ENV("llm.api_key_env", ValueType.text(false), "",
            List.of("AGENT_LLM_API_KEY_ENV"), false,
            "Environment variable holding the API key; empty means the provider's own: OPENAI_API_KEY, OLLAMA_API_KEY"
                    + " or ANTHROPIC_API_KEY. The key is sent only to llm.base_url",
            c -> c.llm().apiKeyEnv()),
    LLM_API_KEY("llm.api_key", ValueType.text(false), "",
            List.of("AGENT_LLM_API_KEY"), true,
            "API key; empty sends none; set nowhere, the variable llm.api_key_env names gives it (prefer that to"
                    + " this file)",
            c -> c.llm().apiKey()),
    LLM_TEMPERATURE("llm.temperature", ValueType.decimal(0, 2), "0.7",
            List.of("AGENT_LLM_TEMPERATURE"), false,
            "Sampling temperature",
            c -> c.llm().temperature()),
    LLM_PRESENCE_PENALTY("llm.presence_penalty", ValueType.decimal(-2, 2), "0.0",
            List.of("AGENT_LLM_PRESENCE_PENALTY"), false,
            "Presence penalty sent with each main-cycle request (0 sends none); the anti-stagnation reflex raises it"
                    + " while the agent loops and returns it here after a novel reply",
            c -> c.llm().presencePenalty()),
    LLM_FREQUENCY_PENALTY("llm.frequency_penalty", ValueType.decimal(-2, 2), "0.0",
            List.of("AGENT_LLM_FREQUENCY_PENALTY"), false,
            "Frequency penalty sent with each main-cycle request (0 sends none); the anti-stagnation reflex raises it"
                    + " while the agent loops and returns it here after a novel reply",
            c -> c.llm().frequencyPenalty()),
    LLM_MAX_TOKENS("llm.max_tokens", ValueType.wholeNumber(1, 1_000_000), "1024",
            List.of("AGENT_LLM_MAX_TOKENS"), false,
            "Upper bound on tokens in one reply",
            c -> c.llm().maxTokens()),
    LLM_STREAM("llm.stream", ValueType.bool(), "true",
            List.of("AGENT_LLM_STREAM"), false,
            "Stream replies token by token",
            c -> c.llm().stream()),
    LLM_CONNECT_TIMEOUT_S("llm.connect_timeout_s", ValueType.wholeNumber(1, 600), "10",
            List.of("AGENT_LLM_CONNECT_TIMEOUT_S"), false,
            "Seconds to wait for a connection to the API",
            c -> c.llm().connectTimeout().toSeconds()),
    LLM_READ_TIMEOUT_S("llm.read_timeout_s", ValueType.wholeNumber(1, 3600), "120",
            List.of("AGENT_LLM_READ_TIMEOUT_S"), false,
            "Seconds to wait for data from the API before giving up",
            c -> c.llm().readTimeout().toSeconds()),
    LLM_MAX_BACKOFF_S("llm.max_backoff_s", ValueType.wholeNumber(1, 3600), "60",
            List.of("AGENT_LLM_MAX_BACKOFF_S"), false,
            "Longest pause, in seconds, between retries of a failed call",
            c -> c.llm().maxBackoff().toSeconds()),
    LLM_CALL_DEADLINE_S("llm.call_deadline_s", ValueType.wholeNumber(1, 86_400), "300",
            List.of("AGENT_LLM_CALL_DEADLINE_S"), false,
            "Most seconds one LLM call may take in all, however slowly the server trickles; then it is retried",
            c -> c.llm().callDeadline().toSeconds()),
    LLM_GIVE_UP_S("llm.give_up_s", ValueType.wholeNumber(0, 86_400), "120",
            List.of("AGENT_LLM_GIVE_UP_S"), false,
            "Piped input: at its end, seconds to keep waiting for an unreachable LLM (then exit 6), an unwritable file or lines still waiting in the inbox (then exit 5)",
            c -> c.llm().giveUp().toSeconds()),
    LLM_OPTIONS("llm.options", ValueType.options(), "{}",
            List.of("AGENT_LLM_OPTIONS"), false,
            "Model options for provider ollama (num_ctx, top_k, seed, ...), sent as the request's options; without"
                    + " num_ctx, one that holds the prompt is sent",
            c -> c.llm().options()),
    LLM_FAILOVER_AFTER("llm.failover_after", ValueType.failuresOrSeconds(), "3",
            List.of("AGENT_LLM_FAILOVER_AFTER"), false,
            "When the LLM is unreachable, think with the next llm.registry entry after this many failures in a row"
                    + " (3) or this long (\"90s\"); the main LLM is probed cheaply and used again when it answers",
            c -> c.llm().failoverAfter()),
    LLM_COMMANDS("llm.commands", ValueType.choice("block", "tools", "json"), "block",
            List.of("AGENT_LLM_COMMANDS"), false,
            "How the LLM is asked for commands: block (a # Commands: block at the end of its reply, the HMP contract),"
                    + " tools (the provider's native tool calling, with JSON Schemas from the command registry;"
                    + " a server that refuses tools gets blocks for the rest of the run) or json (the reply is one"
                    + " JSON object, its thought and its commands, kept to the commands' schema by the server: for"
                    + " small local models; openai and ollama, not anthropic; a server that refuses the schema gets"
                    + " blocks for the rest of the run); llm.registry entries take their own commands",
            c -> c.llm().commands().configName()),
    LLM_REGISTRY("llm.registry", ValueType.tables("LLM", List.of(
            new ValueType.Field("id", ValueType.text(true), true),
            new ValueType.Field("provider", ValueType.choice("openai", "ollama", "anthropic"), false),
            new ValueType.Field("base_url", ValueType.httpUrl(), false),
            new ValueType.Field("model", ValueType.text(true), true),
            new ValueType.Field("api_key_env", ValueType.text(false), false),
            new ValueType.Field("priority", ValueType.wholeNumber(1, 1000), false),
            new ValueType.Field("options", ValueType.options(), false),
            new ValueType.Field("description", ValueType.text(false), false),
            new ValueType.Field("commands", ValueType.choice("block", "tools", "json"), false))), "[]",
            List.of("AGENT_LLM_REGISTRY"), false,
            "Other LLMs the agent may think with, tried by priority when the main one is unreachable and offered to"
                    + " the LLM by llm_list / llm_select: id, model, provider (openai), base_url (the provider's),"
                    + " api_key_env (the provider's variable only when base_url is not given, else none), priority,"
                    + " options, description, commands (block, tools or json, as llm.commands; block)",
            c -> c.llm().registryTables()),
    LLM_PRICES("llm.prices", ValueType.tables("price", List.of(
            new ValueType.Field("model", ValueType.text(true), true),
            new ValueType.Field("input", ValueType.decimal(0, 1_000_000), true),
            new ValueType.Field("cached_input", ValueType.decimal(0, 1_000_000), false),
            new ValueType.Field("output", ValueType.decimal(0, 1_000_000), true))), "[]",
            List.of("AGENT_LLM_PRICES"), false,
            "US dollars per million tokens by model (input, cached_input, output), for the cost /status and agent"
                    + " status show; a model without a price shows tokens only",
            c -> c.llm().priceTables()),
    CYCLE_AUTONOMOUS("cycle.autonomous", ValueType.bool(), "false",
            List.of("AGENT_CYCLE_AUTONOMOUS"), false,
            "Think on every tick even when nothing new has arrived",
            c -> c.cycle().autonomous()),
    CYCLE_HISTORY_K("cycle.history_k", ValueType.wholeNumber(0, 100), "5",
            List.of("AGENT_CYCLE_HISTORY_K"), false,
            "How many recent LLM replies context 1 shows at least; it grows by each reply and drops back to K when the"
                    + " prompt changes ahead of it anyway or past 3K - 1, so the prompt's prefix stays cacheable",
            c -> c.cycle().historyK()),
    CYCLE_POLL_MS("cycle.poll_ms", ValueType.wholeNumber(10, 60_000), "500",
            List.of("AGENT_CYCLE_POLL_MS"), false,
            "Milliseconds between checks of the database for work from other processes while idle",
            c -> c.cycle().pollInterval().toMillis()),
    CYCLE_MAX_IDLE_S("cycle.max_idle_s", ValueType.wholeNumber(1, 86_400),
            String.valueOf(CycleSection.DEFAULT_MAX_IDLE.toSeconds()),
            List.of("AGENT_CYCLE_MAX_IDLE_S"), false,
            "Longest the LLM's own idle may last, in seconds, whatever wake conditions it set",
            c -> c.cycle().maxIdle().toSeconds()),
    CYCLE_MAX_COMMANDS_PER_REPLY("cycle.max_commands_per_reply", ValueType.wholeNumber(1, 10_000),
            String.valueOf(CycleSection.DEFAULT_MAX_COMMANDS_PER_REPLY),
            List.of("AGENT_CYCLE_MAX_COMMANDS_PER_REPLY"), false,
            "Most commands of one reply that run; the ones after them do not run and become one error row",
            c -> c.cycle().maxCommandsPerReply()),
    CONTEXT_PROMPT_BUDGET_TOKENS("context.prompt_budget_tokens", ValueType.wholeNumber(500, 1_000_000), "6000",
            List.of("AGENT_CONTEXT_PROMPT_BUDGET_TOKENS"), false,
            "Token budget for the assembled prompt",
            c -> c.context().promptBudgetTokens()),
    CONTEXT_NOTES_MODE("context.notes_mode", ValueType.choice("auto", "manual"), "auto",
            List.of("AGENT_CONTEXT_NOTES_MODE"), false,
            "How unread messages enter context 4: auto (listed in full) or manual (counts and ids; the LLM reads them with note_read)",
            c -> c.context().notesMode().configName()),
    CONTEXT_NOTES_LIMIT("context.notes_limit", ValueType.wholeNumber(1, 1000), "20",
            List.of("AGENT_CONTEXT_NOTES_LIMIT"), false,
            "Most notes shown in the context at once",
            c -> c.context().notesLimit()),
    CONTEXT_NOTES_MIN_PRIORITY("context.notes_min_priority", ValueType.wholeNumber(-1000, 1000), "0",
            List.of("AGENT_CONTEXT_NOTES_MIN_PRIORITY"), false,
            "Auto mode: notes below this priority wait unread and wake nothing",
            c -> c.context().notesMinPriority()),
    CONTEXT_NOTES_TAGS("context.notes_tags", ValueType.text(false), "",
            List.of("AGENT_CONTEXT_NOTES_TAGS"), false,
            "Auto mode: comma-separated tags; when set, only notes carrying one of them are shown (empty: all)",
            c -> c.context().notesTags()),
    CONTEXT_PROMPT_FORM("context.prompt_form", ValueType.choice("auto", "full", "compact"), "auto",
            List.of("AGENT_CONTEXT_PROMPT_FORM"), false,
            "How context 0 lists the commands: full (each common one with its arguments), compact (the dozen a usual"
                    + " task needs, the rest behind help: for a small model), or auto (compact when the server says the"
                    + " model's context window is 8192 tokens or less: llama.cpp's /props, Ollama's /api/show or num_ctx)",
            c -> c.context().promptForm().configName()),
    RUN_HZ("run.hz", ValueType.decimal(0.1, 50), "1.0",
            List.of("AGENT_RUN_HZ"), false,
            "agent run: ticks per second of the fixed-rate loop (frames at start + n / hz, no drift)",
            c -> c.run().hz()),
    RUN_MAX_CATCH_UP("run.max_catch_up", ValueType.wholeNumber(0, 1000), "10",
            List.of("AGENT_RUN_MAX_CATCH_UP"), false,
            "agent run --catch-up: most frames missed by a slow tick that run back to back; the rest are skipped",
            c -> c.run().maxCatchUp()),
    POLICY_SHELL_DENY("policy.shell_deny", ValueType.list(ValueType.commandPrefix(), "command prefixes"),
            "[\"rm -rf /\", \"mkfs\", \"dd\", \"shutdown\", \"reboot\"]",
            List.of("AGENT_POLICY_SHELL_DENY"), false,
            "Shell commands refused outright, by prefix word by word; checked first",
            c -> c.policy().shellDeny()),
    POLICY_SHELL_ASK("policy.shell_ask", ValueType.list(ValueType.commandPrefix(), "command prefixes"), "[]",
            List.of("AGENT_POLICY_SHELL_ASK"), false,
            "Shell commands that need a person's yes each time (refused when nobody can answer); checked second",
            c -> c.policy().shellAsk()),
    POLICY_SHELL_ALLOW("policy.shell_allow", ValueType.list(ValueType.commandPrefix(), "command prefixes"),
            "[\"ls\", \"cat\", \"pwd\", \"echo\", \"grep\", \"head\", \"tail\", \"wc\","
                    + " \"git status\", \"git log\", \"git diff\"]",
            List.of("AGENT_POLICY_SHELL_ALLOW"), false,
            "Shell commands run without asking; checked last (anything else is asked, or refused when nobody can answer)",
            c -> c.policy().shellAllow()),
    FILES_ROOTS("files.roots", ValueType.list(ValueType.path(), "directory paths"), "[]",
            List.of("AGENT_FILES_ROOTS"), false,
            "Directories file_read, file_write, file_list and shell cwd may use; [] means workspace/ beside the database",
            c -> c.files().roots()),
    FILES_MAX_READ_BYTES("files.max_read_bytes", ValueType.wholeNumber(1, 104_857_600), "65536",
            List.of("AGENT_FILES_MAX_READ_BYTES"), false,
            "Largest file file_read returns, in bytes",
            c -> c.files().maxReadBytes()),
    FILES_MAX_WRITE_BYTES("files.max_write_bytes", ValueType.wholeNumber(1, 104_857_600), "1048576",
            List.of("AGENT_FILES_MAX_WRITE_BYTES"), false,
            "Largest content file_write accepts, in bytes",
            c -> c.files().maxWriteBytes()),
    SHELL_TIMEOUT_S("shell.timeout_s", ValueType.wholeNumber(1, 86_400), "30",
            List.of("AGENT_SHELL_TIMEOUT_S"), false,
            "Seconds a shell command may run when it names no timeout; then its whole process tree is killed",
            c -> c.shell().timeout().toSeconds()),
    SHELL_MAX_TIMEOUT_S("shell.max_timeout_s", ValueType.wholeNumber(1, 86_400), "600",
            List.of("AGENT_SHELL_MAX_TIMEOUT_S"), false,
            "Most seconds a shell command may ask for with timeout_s",
            c -> c.shell().maxTimeout().toSeconds()),
    SHELL_MAX_PROCESSES("shell.max_processes", ValueType.wholeNumber(1, 64), "4",
            List.of("AGENT_SHELL_MAX_PROCESSES"), false,
            "Most shell commands running at once; further starts are refused",
            c -> c.shell().maxProcesses()),
    SHELL_OUTPUT_CAP_BYTES("shell.output_cap_bytes", ValueType.wholeNumber(256, 10_485_760), "8192",
            List.of("AGENT_SHELL_OUTPUT_CAP_BYTES"), false,
            "Bytes of a shell command's output (the tail of stdout and stderr) kept as its result",
            c -> c.shell().outputCapBytes()),
    SHELL_ENV("shell.env", ValueType.list(ValueType.variableName(), "variable names"), "[]",
            List.of("AGENT_SHELL_ENV"), false,
            "Variables of the agent's environment passed on to commands and MCP servers besides PATH, HOME, LANG, LC_*,"
                    + " TERM, TZ, USER, LOGNAME, SHELL and TMPDIR; never one holding a configured key",
            c -> c.shell().env()),
    CLEANUP_MIN_AGE_TICKS("cleanup.min_age_ticks", ValueType.wholeNumber(1, 1_000_000_000), "100",
            List.of("AGENT_CLEANUP_MIN_AGE_TICKS"), false,
            "Floor for cleanup commands: nothing newer than this many ticks is deleted, whatever the LLM asks",
            c -> c.cleanup().minAgeTicks()),
    SAFETY_GUIDE("safety.guide", ValueType.choice("safety", "learning", "debugging"), "learning",
            List.of("AGENT_SAFETY_GUIDE"), false,
            "How a failure is explained to the LLM: safety (a refusal is a violation: do not try again),"
                    + " learning (a boundary found: find another way), debugging (diagnostic data: check paths and ownership)",
            c -> c.safety().guide()),
    SAFETY_TOKEN_BUDGET("safety.token_budget", ValueType.wholeNumber(1, 1_000_000_000), "1000000",
            List.of("AGENT_SAFETY_TOKEN_BUDGET"), false,
            "Tokens all LLM calls of one task may spend, counted as the provider charges: prompt tokens read from its cache at a tenth (a task starts with a message from a person or the CLI, or an unlock); a call that would cross it is refused: STOPPED(budget)",
            c -> c.safety().tokenBudget()),
    SAFETY_DAILY_TOKEN_BUDGET("safety.daily_token_budget", ValueType.wholeNumber(0, 1_000_000_000), "0",
            List.of("AGENT_SAFETY_DAILY_TOKEN_BUDGET"), false,
            "Tokens all LLM calls may spend in any rolling 24 hours, whatever the task; 0 turns it off",
            c -> c.safety().dailyTokenBudget()),
    SAFETY_TICK_CAP("safety.tick_cap", ValueType.wholeNumber(1, 1_000_000), "500",
            List.of("AGENT_SAFETY_TICK_CAP"), false,
            "LLM calls one task may make, progress or not (the last backstop); over it the agent locks (SAFETY_LOCKOUT)",
            c -> c.safety().tickCap()),
    SAFETY_NO_PROGRESS_ALERT("safety.no_progress_alert", ValueType.wholeNumber(1, 100_000), "10",
            List.of("AGENT_SAFETY_NO_PROGRESS_ALERT"), false,
            "LLM calls since the last progress (a result or file content the task had not seen) that bring one alert",
            c -> c.safety().noProgressAlert()),
    SAFETY_NO_PROGRESS_STOP("safety.no_progress_stop", ValueType.wholeNumber(2, 100_000), "20",
            List.of("AGENT_SAFETY_NO_PROGRESS_STOP"), false,
            "LLM calls since the last progress that stop the agent: a rest when they polled one unchanged result"
                    + " (stagnation.sleep_s, doubling), otherwise SAFETY_LOCKOUT; above no_progress_alert",
            c -> c.safety().noProgressStop()),
    SAFETY_UNANSWERED_MESSAGES("safety.unanswered_messages", ValueType.wholeNumber(1, 10_000), "5",
            List.of("AGENT_SAFETY_UNANSWERED_MESSAGES"), false,
            "Messages to the person with no answer and no progress between them that rest the agent until a person"
                    + " answers",
            c -> c.safety().unansweredMessages()),
    SAFETY_ALERT_COMMAND("safety.alert_command", ValueType.text(false), "",
            List.of(), false, true,
            "Command line run with /bin/sh -c on every lockout, the reason in $HMP_AGENT_ALERT and as $1; empty runs none",
            c -> c.safety().alertCommand()),
    SAFETY_REPEAT_ALERT_AT("safety.repeat_alert_at", ValueType.wholeNumber(1, 1000), "3",
            List.of("AGENT_SAFETY_REPEAT_ALERT_AT"), false,
            "The same failing action this many times in a row brings one alert to the LLM (below repeat_lock_at)",
            c -> c.safety().repeatAlertAt()),
    SAFETY_REPEAT_LOCK_AT("safety.repeat_lock_at", ValueType.wholeNumber(2, 1000), "5",
            List.of("AGENT_SAFETY_REPEAT_LOCK_AT"), false,
            "The same failing action is refused at this repeat and the agent locks (SAFETY_LOCKOUT)",
            c -> c.safety().repeatLockAt()),
    SAFETY_CASCADE_WINDOW("safety.cascade_window", ValueType.wholeNumber(1, 1000), "10",
            List.of("AGENT_SAFETY_CASCADE_WINDOW"), false,
            "How many recent operations the error-cascade breaker looks at",
            c -> c.safety().cascadeWindow()),
    SAFETY_CASCADE_FAILURES("safety.cascade_failures", ValueType.wholeNumber(1, 1000), "8",
            List.of("AGENT_SAFETY_CASCADE_FAILURES"), false,
            "Failures among the last cascade_window operations that pause the agent (ERROR_PAUSED); at most cascade_window",
            c -> c.safety().cascadeFailures()),
    SAFETY_LOOP_ALERT_AT("safety.loop_alert_at", ValueType.wholeNumber(1, 1000), "3",
            List.of("AGENT_SAFETY_LOOP_ALERT_AT"), false,
            "Rounds of a cycle over states (A→B→A: back to a result or file content the task had) that bring one alert"
                    + " (below loop_lock_at)",
            c -> c.safety().loopAlertAt()),
    SAFETY_LOOP_LOCK_AT("safety.loop_lock_at", ValueType.wholeNumber(2, 1000), "5",
            List.of("AGENT_SAFETY_LOOP_LOCK_AT"), false,
            "Rounds of a cycle over states that lock the agent (SAFETY_LOCKOUT)",
            c -> c.safety().loopLockAt()),
    SAFETY_THRASH_WINDOW("safety.thrash_window", ValueType.wholeNumber(2, 1000), "20",
            List.of("AGENT_SAFETY_THRASH_WINDOW"), false,
            "How many commands since the last progress (a state the task had not seen, a new note) the thrash breaker"
                    + " looks at",
            c -> c.safety().thrashWindow()),
    SAFETY_THRASH_FAILURES("safety.thrash_failures", ValueType.wholeNumber(1, 1000), "10",
            List.of("AGENT_SAFETY_THRASH_FAILURES"), false,
            "Failures among the last thrash_window commands with no progress that pause the agent (ERROR_PAUSED; half as"
                    + " many among half as many commands alert); at most thrash_window",
            c -> c.safety().thrashFailures()),
    STAGNATION_METHOD("stagnation.method", ValueType.choice("llm", "local", "hybrid"), "hybrid",
            List.of("AGENT_STAGNATION_METHOD"), false,
            "How step 5 compares a reply with the previous one: llm (a mini-request to the LLM), local (no LLM call:"
                    + " sentence diff and normalised similarity), hybrid (local first; the LLM only in the ambiguous band)",
            c -> c.stagnation().method().configName()),
    STAGNATION_MODEL("stagnation.model", ValueType.text(false), "",
            List.of("AGENT_STAGNATION_MODEL"), false,
            "Model for the comparison mini-request, on the same endpoint and key as llm.*; empty uses llm.model (then,"
                    + " on a server on this machine or network, the question follows the main request, so the server's"
                    + " prompt cache survives it)",
            c -> c.stagnation().model()),
    STAGNATION_MAX_TOKENS("stagnation.max_tokens", ValueType.wholeNumber(16, 8192), "200",
            List.of("AGENT_STAGNATION_MAX_TOKENS"), false,
            "Most tokens of a comparison reply (its JSON needs about 150)",
            c -> c.stagnation().maxTokens()),
    STAGNATION_NEAR_IDENTICAL("stagnation.near_identical", ValueType.decimal(0, 1), "0.15",
            List.of("AGENT_STAGNATION_NEAR_IDENTICAL"), false,
            "Hybrid: a local novelty below this is judged the same without asking the LLM (at most ambiguous_high)",
            c -> c.stagnation().nearIdentical()),
    STAGNATION_AMBIGUOUS_HIGH("stagnation.ambiguous_high", ValueType.decimal(0, 1), "0.9",
            List.of("AGENT_STAGNATION_AMBIGUOUS_HIGH"), false,
            "Hybrid: the LLM is asked only when the local novelty lies from near_identical up to this;"
                    + " above it the reply is new without a call",
            c -> c.stagnation().ambiguousHigh()),
    STAGNATION_NOVELTY_THRESHOLD("stagnation.novelty_threshold", ValueType.decimal(0, 1), "0.3",
            List.of("AGENT_STAGNATION_NOVELTY_THRESHOLD"), false,
            "A reply whose novelty is below this is low-novelty; at or above it is novel (the reflex's tuning returns"
                    + " to the configured values, a strategy that preceded it is rated up)",
            c -> c.stagnation().noveltyThreshold()),
    STAGNATION_LOW_NOVELTY_TICKS("stagnation.low_novelty_ticks", ValueType.wholeNumber(1, 1000), "2",
            List.of("AGENT_STAGNATION_LOW_NOVELTY_TICKS"), false,
            "This many low-novelty LLM ticks in a row are a sign of stagnation",
            c -> c.stagnation().lowNoveltyTicks()),
    STAGNATION_REPEAT_WINDOW("stagnation.repeat_window", ValueType.wholeNumber(0, 10_000), "20",
            List.of("AGENT_STAGNATION_REPEAT_WINDOW"), false,
            "A reply word-for-word equal to any of the last this-many replies is a sign of stagnation; 0 turns it off",
            c -> c.stagnation().repeatWindow()),
    STAGNATION_NO_GROWTH_TICKS("stagnation.no_growth_ticks", ValueType.wholeNumber(0, 10_000), "8",
            List.of("AGENT_STAGNATION_NO_GROWTH_TICKS"), false,
            "No new concept or link over this many LLM ticks is a sign of stagnation; 0 turns it off",
            c -> c.stagnation().noGrowthTicks()),
    STAGNATION_NO_STIMULUS_TICKS("stagnation.no_stimulus_ticks", ValueType.wholeNumber(0, 10_000), "8",
            List.of("AGENT_STAGNATION_NO_STIMULUS_TICKS"), false,
            "No new note or process result over this many LLM ticks is a sign of stagnation; 0 turns it off",
            c -> c.stagnation().noStimulusTicks()),
    STAGNATION_REFLEX("stagnation.reflex", ValueType.bool(), "true",
            List.of("AGENT_STAGNATION_REFLEX"), false,
            "Run the reflex's strategies when stagnation is detected (false: only compare and record)",
            c -> c.stagnation().reflex()),
    STAGNATION_RATING_TICKS("stagnation.rating_ticks", ValueType.wholeNumber(1, 1000), "3",
            List.of("AGENT_STAGNATION_RATING_TICKS"), false,
            "A strategy is rated +1 when novelty rises above novelty_threshold within this many LLM ticks after it"
                    + " fired, -1 otherwise",
            c -> c.stagnation().ratingTicks()),
    STAGNATION_MAX_QUESTIONS("stagnation.max_questions", ValueType.wholeNumber(0, 1000), "2",
            List.of("AGENT_STAGNATION_MAX_QUESTIONS"), false,
            "Questions the reflex asks the person with no answer before it stops asking and slows down",
            c -> c.stagnation().maxQuestions()),
    STAGNATION_SLEEP_S("stagnation.sleep_s", ValueType.wholeNumber(1, 604_800), "600",
            List.of("AGENT_STAGNATION_SLEEP_S"), false,
            "Seconds the sleep strategy idles the LLM",
            c -> c.stagnation().sleep().toSeconds()),
    STAGNATION_TASK_SWITCH_S("stagnation.task_switch_s", ValueType.wholeNumber(1, 604_800), "3600",
            List.of("AGENT_STAGNATION_TASK_SWITCH_S"), false,
            "Seconds the task-switch strategy freezes the pinned task before returning to it with a reminder",
            c -> c.stagnation().taskSwitch().toSeconds()),
    STAGNATION_CHANT_MIN_PERIOD("stagnation.chant_min_period", ValueType.wholeNumber(5, 10_000), "20",
            List.of("AGENT_STAGNATION_CHANT_MIN_PERIOD"), false,
            "Shortest chunk, in characters, that counts as chanting inside one streamed reply",
            c -> c.stagnation().chantMinPeriod()),
    STAGNATION_CHANT_REPEATS("stagnation.chant_repeats", ValueType.wholeNumber(2, 10_000), "10",
            List.of("AGENT_STAGNATION_CHANT_REPEATS"), false,
            "The chunk repeated this many times in a row cancels the call",
            c -> c.stagnation().chantRepeats()),
    SANDBOX_MODE("sandbox.mode", ValueType.choice("auto", "required", "off"), "auto",
            List.of("AGENT_SANDBOX_MODE"), false,
            "How shell and script_run processes are confined: auto (inside bubblewrap where it works, else the text"
                    + " policy's stricter fallback, said at start), required (refuse them without bubblewrap), off (the"
                    + " fallback)",
            c -> c.sandbox().mode().configName()),
    SANDBOX_NETWORK("sandbox.network", ValueType.choice("off", "on"), "off",
            List.of("AGENT_SANDBOX_NETWORK"), false,
            "Whether a sandboxed process may use the network (off: no interface but its own loopback)",
            c -> c.sandbox().network() ? "on" : "off"),
    SANDBOX_MAX_FILE_BYTES("sandbox.max_file_bytes", ValueType.wholeNumber(4096, 1L << 50),
            String.valueOf(SandboxSection.DEFAULT_MAX_FILE_BYTES),
            List.of("AGENT_SANDBOX_MAX_FILE_BYTES"), false,
            "Largest file one command may write, in bytes (a bigger write fails and the process gets SIGXFSZ); what"
                    + " a task may add in all is sandbox.task_max_bytes",
            c -> c.sandbox().maxFileBytes()),
    SANDBOX_MAX_PROCESSES("sandbox.max_processes", ValueType.wholeNumber(8, 65_536),
            String.valueOf(SandboxSection.DEFAULT_MAX_PROCESSES),
            List.of("AGENT_SANDBOX_MAX_PROCESSES"), false,
            "Most processes one sandboxed command may run at once (cgroup pids.max where the agent may make one,"
                    + " else a limit inside the sandbox's user namespace; not enforceable for root without a cgroup)",
            c -> c.sandbox().maxProcesses()),
    SANDBOX_TASK_MAX_BYTES("sandbox.task_max_bytes", ValueType.wholeNumber(1L << 20, 1L << 50),
            String.valueOf(SandboxSection.DEFAULT_TASK_MAX_BYTES),
            List.of("AGENT_SANDBOX_TASK_MAX_BYTES"), false,
            "What the shell and script_run commands of one task may add to the file roots, in bytes: past it they are"
                    + " refused (EDQUOT) and running ones stopped, until what they made is deleted or a new task starts",
            c -> c.sandbox().taskMaxBytes()),
    SANDBOX_TASK_MAX_FILES("sandbox.task_max_files", ValueType.wholeNumber(100, 1L << 40),
            String.valueOf(SandboxSection.DEFAULT_TASK_MAX_FILES),
            List.of("AGENT_SANDBOX_TASK_MAX_FILES"), false,
            "What the shell and script_run commands of one task may add to the file roots, in files and folders (as"
                    + " sandbox.task_max_bytes)",
            c -> c.sandbox().taskMaxFiles()),
    MCP_SERVERS("mcp.servers", ValueType.tables("MCP server", List.of(
            new ValueType.Field("name", ValueType.text(true), true),
            new ValueType.Field("command", ValueType.text(false), false),
            new ValueType.Field("args", ValueType.list(ValueType.text(false), "arguments"), false),
            new ValueType.Field("env", ValueType.options(), false),
            new ValueType.Field("url", ValueType.httpUrl(), false),
            new ValueType.Field("headers", ValueType.options(), false),
            new ValueType.Field("timeout_s", ValueType.wholeNumber(1, 3600), false),
            new ValueType.Field("sandbox", ValueType.bool(), false),
            new ValueType.Field("network", ValueType.bool(), false),
            new ValueType.Field("read_only", ValueType.list(ValueType.path(), "paths"), false),
            new ValueType.Field("read_write", ValueType.list(ValueType.path(), "paths"), false))), "[]",
            List.of(), false, true,
            "Model Context Protocol servers whose tools the LLM may call as mcp.<name>.<tool>: name, and either command"
                    + " and args (started over stdio) with env = { VAR = \"NAME_OF_AN_ENV_VAR\" } (the agent's variable"
                    + " whose value the server gets; never the value itself), or url (streamable HTTP) with headers ="
                    + " { Header = \"NAME_OF_AN_ENV_VAR\" }; timeout_s of one call (60); a stdio server runs in the"
                    + " sandbox (sandbox = true) seeing only the system and its read_only and read_write paths, the"
                    + " network only with network = true; sandbox = false runs it unconfined",
            c -> c.mcp().serverTables()),
    MCP_ALLOW("mcp.allow", ValueType.list(ValueType.text(true), "servers or server.tool names"), "[]",
            List.of("AGENT_MCP_ALLOW"), false,
            "MCP servers (name) or tools (name.tool) whose calls run without asking",
            c -> c.mcp().allow()),
    MCP_ASK("mcp.ask", ValueType.list(ValueType.text(true), "servers or server.tool names"), "[]",
            List.of("AGENT_MCP_ASK"), false,
            "MCP servers or tools whose calls a person approves first (the default for any tool named nowhere;"
                    + " headless, nobody answers, so they are refused)",
            c -> c.mcp().ask()),
    MCP_DENY("mcp.deny", ValueType.list(ValueType.text(true), "servers or server.tool names"), "[]",
            List.of("AGENT_MCP_DENY"), false,
            "MCP servers or tools whose calls are always refused (a tool's own entry beats its server's; deny beats"
                    + " ask beats allow)",
            c -> c.mcp().deny()),
    MCP_CATALOGUE_CHARS("mcp.catalogue_chars", ValueType.wholeNumber(500, 200_000),
            String.valueOf(McpSection.DEFAULT_CATALOGUE_CHARS),
            List.of("AGENT_MCP_CATALOGUE_CHARS"), false,
            "Most characters of MCP tool lines context 0 lists (each tool's description cut at 200); the LLM finds"
                    + " the rest with mcp_search, and you are told once how many were left out",
            c -> c.mcp().catalogueChars()),
    A2A_LISTEN("a2a.listen", ValueType.text(false), "", List.of("AGENT_A2A_LISTEN"), false,
            "Where the agent serves the Agent2Agent protocol (its agent card and JSON-RPC), as host:port, e.g."
                    + " 127.0.0.1:7420; empty: not served. Without a2a.tokens only a loopback address is allowed",
            c -> c.a2a().listen()),
    A2A_TOKENS("a2a.tokens", ValueType.list(ValueType.variableName(), "variable names"), "[]",
            List.of("AGENT_A2A_TOKENS"), false,
            "Names of environment variables whose values are the bearer tokens a caller may present (never the token"
                    + " itself); the variable's name is the caller's name. Required to listen on a non-loopback address",
            c -> c.a2a().tokens()),
    A2A_ALLOW("a2a.allow", ValueType.list(ValueType.text(true), "peer names"), "[]", List.of("AGENT_A2A_ALLOW"),
            false, "Peers peer_message sends to without asking (a child the agent spawned is always allowed)",
            c -> c.a2a().allow()),
    A2A_ASK("a2a.ask", ValueType.list(ValueType.text(true), "peer names"), "[]", List.of("AGENT_A2A_ASK"), false,
            "Peers a person approves each message to first (the default for a peer named nowhere; headless, nobody"
                    + " answers, so it is refused)",
            c -> c.a2a().ask()),
    A2A_DENY("a2a.deny", ValueType.list(ValueType.text(true), "peer names"), "[]", List.of("AGENT_A2A_DENY"), false,
            "Peers peer_message never sends to (deny beats ask beats allow)",
            c -> c.a2a().deny()),
    A2A_MAX_MESSAGE_BYTES("a2a.max_message_bytes", ValueType.wholeNumber(1024, 16L << 20),
            String.valueOf(A2aSection.DEFAULT_MAX_MESSAGE_BYTES), List.of("AGENT_A2A_MAX_MESSAGE_BYTES"), false,
            "Largest request a caller may send, in bytes (a larger one is refused with HTTP 413)",
            c -> c.a2a().maxMessageBytes()),
    A2A_RATE_PER_MINUTE("a2a.rate_per_minute", ValueType.wholeNumber(1, 100_000),
            String.valueOf(A2aSection.DEFAULT_RATE_PER_MINUTE), List.of("AGENT_A2A_RATE_PER_MINUTE"), false,
            "Messages one caller may send a minute (more are refused with HTTP 429 until the minute has passed)",
            c -> c.a2a().ratePerMinute()),
    A2A_MAX_DEPTH("a2a.max_depth", ValueType.wholeNumber(1, 64), String.valueOf(A2aSection.DEFAULT_MAX_DEPTH),
            List.of("AGENT_A2A_MAX_DEPTH"), false,
            "Most agents a message may have passed before this one (its trace); a deeper one, or one whose trace holds"
                    + " this agent, is refused as a loop between agents",
            c -> c.a2a().maxDepth()),
    A2A_MAX_CHILDREN("a2a.max_children", ValueType.wholeNumber(0, 64), String.valueOf(A2aSection.DEFAULT_MAX_CHILDREN),
            List.of("AGENT_A2A_MAX_CHILDREN"), false,
            "Most child agents agent_spawn and agent spawn may run at once",
            c -> c.a2a().maxChildren()),
    A2A_CALLER_TOKENS_PER_DAY("a2a.caller_tokens_per_day", ValueType.wholeNumber(0, Long.MAX_VALUE),
            String.valueOf(A2aSection.DEFAULT_CALLER_TOKENS_PER_DAY), List.of("AGENT_A2A_CALLER_TOKENS_PER_DAY"), false,
            "Tokens one caller's tasks may cost the agent in 24 hours (what its LLM calls cost while each task was open);"
                    + " past it the caller's next message is refused until the day has passed; 0: no cap",
            c -> c.a2a().callerTokensPerDay());

    private static final Map<String, ConfigKey> BY_NAME = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(ConfigKey::fullName, Function.identity()));

    private final String fullName;
    private final ValueType type;
    private final String defaultValue;
    private final List<String> envNames;
    private final boolean secret;
    private final boolean fileOnly;
    private final String doc;
    private final Function<AgentConfig, Object> getter;

    ConfigKey(String fullName, ValueType type, String defaultValue, List<String> envNames,
              boolean secret, String doc, Function<AgentConfig, Object> getter) {
        this(fullName, type, defaultValue, envNames, secret, false, doc, getter);
    }

    ConfigKey(String fullName, ValueType type, String defaultValue, List<String> envNames,
              boolean secret, boolean fileOnly, String doc, Function<AgentConfig, Object> getter) {
        if (fileOnly && !envNames.isEmpty()) {
            throw new IllegalArgumentException(fullName + ": a key set only in agent.toml has no env var");
        }
        this.fileOnly = fileOnly;
        this.fullName = Objects.requireNonNull(fullName);
        this.type = Objects.requireNonNull(type);
        this.defaultValue = Objects.requireNonNull(defaultValue);
        this.envNames = List.copyOf(envNames);
        this.secret = secret;
        this.doc = Objects.requireNonNull(doc);
        this.getter = Objects.requireNonNull(getter);
    }

    /** The dotted name used in files, e.g. {@code llm.base_url}. */
    public String fullName() {
        return fullName;
    }

    /** The TOML table, e.g. {@code llm}. */
    public String section() {
        return fullName.substring(0, fullName.indexOf('.'));
    }

    /** The name inside its table, e.g. {@code base_url}. */
    public String leafName() {
        return fullName.substring(fullName.indexOf('.') + 1);
    }

    /** The built-in default, as it would be written in an env var. */
    public String defaultValue() {
        return defaultValue;
    }

    /** Environment variables that set this key, highest priority first. */
    public List<String> envNames() {
        return envNames;
    }

    /**
     * True for a key only agent.toml (the project or the user file) may set: no env var, and a flag naming it
     * is refused. Such a key runs something on the host ({@code safety.alert_command}), so only a person
     * editing the file chooses it.
     */
    public boolean fileOnly() {
        return fileOnly;
    }

    public boolean secret() {
        return secret;
    }

    /** One line saying what the key does. */
    public String doc() {
        return doc;
    }

    /** What values are allowed, phrased as advice, e.g. "use a number from 0 to 2". */
    public String allowed() {
        return type.allowed();
    }

    /** The key's value in {@code config} as text (lists as TOML arrays), masked when the key is secret. */
    public String displayValue(AgentConfig config) {
        String text = type.display(getter.apply(Objects.requireNonNull(config, "config")));
        if (secret) return Secrets.mask(text);
        return this == LLM_BASE_URL ? Secrets.redactUrl(text) : text;
    }

    public static Optional<ConfigKey> byName(String fullName) {
        return Optional.ofNullable(BY_NAME.get(fullName));
    }

    ValueType type() {
        return type;
    }
}
