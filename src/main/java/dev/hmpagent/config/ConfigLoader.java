package dev.hmpagent.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Merges the layers, lowest first: built-in default (for llm.base_url, derived from OLLAMA_HOST when it is set),
 * user file, project file, environment, flags.
 * Every value that is supplied is checked, even one a higher layer overrides, so a typo in a file
 * never goes unnoticed. Errors are {@link ConfigException}s with one-line messages.
 */
public final class ConfigLoader {
    private static final int MAX_SHOWN_VALUE = 60;

    private ConfigLoader() {
    }

    public static LoadedConfig load(ConfigSources sources) {
        Objects.requireNonNull(sources, "sources");
        ConfigValues values = ConfigValues.defaults();
        sources.userFile().ifPresent(file -> applyFile(values, file, false, Origin.userFile(file)));
        sources.projectFile().ifPresent(file ->
                applyFile(values, file, sources.projectFileExplicit(), Origin.projectFile(file)));
        applyEnv(values, sources.env());
        applyFlags(values, sources.cliValues(), sources.cliLabels());
        providerVariables(values, sources.env());
        checkTogether(values);
        return new LoadedConfig(values.toConfig(), values.origins());
    }

    private static void applyFile(ConfigValues values, Path file, boolean required, Origin origin) {
        TomlFiles.read(file, required).ifPresent(entries -> entries.forEach((name, node) -> {
            ConfigKey key = ConfigKey.byName(name).orElseThrow(() -> new ConfigException(
                    "unknown key " + name + " in " + file + KeySuggester.hint(name)
                            + "; see agent.example.toml for all keys"));
            values.set(key, fromToml(key, node, origin), origin);
        }));
    }

    private static void applyEnv(ConfigValues values, Map<String, String> env) {
        for (ConfigKey key : ConfigKey.values()) {
            for (String variable : key.envNames()) {
                String raw = env.get(variable);
                if (raw != null && !raw.isEmpty()) {
                    Origin origin = Origin.env(variable);
                    values.set(key, fromText(key, raw, origin), origin);
                    break;
                }
            }
        }
    }

    private static void applyFlags(ConfigValues values, Map<String, String> flags, Map<String, String> labels) {
        flags.forEach((name, raw) -> {
            CommandLineKeys.refuseKeys(name, labels.getOrDefault(name, name), raw);
            ConfigKey key = ConfigKey.byName(name).orElseThrow(() -> new ConfigException(
                    "unknown key " + name + " given on the command line" + KeySuggester.hint(name)));
            String label = labels.getOrDefault(name, name);
            if (key.fileOnly()) {
                throw new ConfigException(name + " can only be set in agent.toml, not with " + label
                        + ": a command run on the host is chosen by editing the file");
            }
            Origin origin = Origin.flag(label);
            values.set(key, fromText(key, raw, origin), origin);
        });
    }

    /**
     * The provider's own variables, read once the provider is known (a flag may choose it): its base-URL variable
     * (OPENAI_BASE_URL, ANTHROPIC_BASE_URL) and its key variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, OLLAMA_API_KEY,
     * or the one llm.api_key_env names) count as environment: they beat the files and lose to AGENT_LLM_* and flags.
     * When nothing sets llm.base_url, {@code OLLAMA_HOST} (read as Ollama's client reads it) gives it for openai and
     * ollama; else the provider's default. Unlike our own variables OLLAMA_HOST is read only then: it is Ollama's too,
     * and a value we cannot use must not stop an agent that is pointed elsewhere. A variable of another provider is
     * never read, so its key never reaches this provider's host.
     */
    private static void providerVariables(ConfigValues values, Map<String, String> env) {
        Provider provider = Provider.fromConfigName(values.text(ConfigKey.LLM_PROVIDER));
        String urlVariable = provider.baseUrlVariable();
        if (urlVariable != null && belowEnv(values.origin(ConfigKey.LLM_BASE_URL)) && present(env, urlVariable)) {
            Origin origin = Origin.env(urlVariable);
            values.set(ConfigKey.LLM_BASE_URL, fromText(ConfigKey.LLM_BASE_URL, env.get(urlVariable), origin), origin);
        }
        if (values.origin(ConfigKey.LLM_BASE_URL).kind().equals(Origin.DEFAULT)) {
            if (provider != Provider.ANTHROPIC && present(env, OllamaHost.VARIABLE)) {
                baseUrlFromOllamaHost(values, env.get(OllamaHost.VARIABLE), provider);
            } else {
                values.set(ConfigKey.LLM_BASE_URL, provider.defaultBaseUrl(), Origin.builtInDefault());
            }
        }
        String keyVariable = values.text(ConfigKey.LLM_API_KEY_ENV).strip();
        if (keyVariable.isEmpty()) keyVariable = provider.keyVariable();
        if (belowEnv(values.origin(ConfigKey.LLM_API_KEY)) && present(env, keyVariable)) {
            Origin origin = Origin.env(keyVariable);
            values.set(ConfigKey.LLM_API_KEY, fromText(ConfigKey.LLM_API_KEY, env.get(keyVariable), origin), origin);
        }
    }

    private static boolean belowEnv(Origin origin) {
        return !origin.kind().equals(Origin.ENV) && !origin.kind().equals(Origin.FLAG);
    }

    private static boolean present(Map<String, String> env, String variable) {
        String value = env.get(variable);
        return value != null && !value.isBlank();
    }

    private static void baseUrlFromOllamaHost(ConfigValues values, String raw, Provider provider) {
        try {
            String url = provider == Provider.OLLAMA ? OllamaHost.root(raw) : OllamaHost.baseUrl(raw);
            values.set(ConfigKey.LLM_BASE_URL, url, Origin.env(OllamaHost.VARIABLE));
        } catch (InvalidValueException e) {
            String shown = OllamaHost.shown(raw);
            throw new ConfigException(OllamaHost.VARIABLE + " = " + (shown.length() <= MAX_SHOWN_VALUE ? shown
                    : shown.substring(0, MAX_SHOWN_VALUE) + "…") + " (read because nothing sets llm.base_url) "
                    + e.reason() + ": " + OllamaHost.EXPECTED);
        }
    }

    /**
     * Why provider anthropic takes no {@code commands = "json"}: its Messages API constrains no reply to a schema, and
     * a single forced tool standing in for one would only be tools mode with a worse context 0, so tools it is.
     */
    private static final String NO_JSON_FOR_ANTHROPIC = "a form provider anthropic does not offer: its Messages API"
            + " cannot keep a reply to a JSON schema; set commands = \"tools\" (its native tool calls) or \"block\"";

    /** Constraints between keys, checked on the merged values. */
    private static void checkTogether(ConfigValues values) {
        checkRegistry(values);
        McpChecks.check(values);
        if (values.text(ConfigKey.LLM_PROVIDER).equals("anthropic")
                && values.text(ConfigKey.LLM_COMMANDS).equals("json")) {
            throw new ConfigException(ConfigKey.LLM_COMMANDS.fullName() + " = \"json\" (from "
                    + values.origin(ConfigKey.LLM_COMMANDS) + ") is " + NO_JSON_FOR_ANTHROPIC);
        }
        if (!values.text(ConfigKey.LLM_PROVIDER).equals("ollama") && !values.display(ConfigKey.LLM_OPTIONS).equals("{}")) {
            throw new ConfigException(ConfigKey.LLM_OPTIONS.fullName() + " (from " + values.origin(ConfigKey.LLM_OPTIONS)
                    + ") is sent only by provider ollama, but llm.provider = " + values.text(ConfigKey.LLM_PROVIDER)
                    + " (from " + values.origin(ConfigKey.LLM_PROVIDER) + "): set llm.provider = \"ollama\" or remove"
                    + " llm.options");
        }
        below(values, ConfigKey.SAFETY_REPEAT_ALERT_AT, ConfigKey.SAFETY_REPEAT_LOCK_AT, 0);
        below(values, ConfigKey.SAFETY_LOOP_ALERT_AT, ConfigKey.SAFETY_LOOP_LOCK_AT, 0);
        below(values, ConfigKey.SAFETY_NO_PROGRESS_ALERT, ConfigKey.SAFETY_NO_PROGRESS_STOP, 0);
        below(values, ConfigKey.SAFETY_CASCADE_FAILURES, ConfigKey.SAFETY_CASCADE_WINDOW, 1);
        below(values, ConfigKey.SAFETY_THRASH_FAILURES, ConfigKey.SAFETY_THRASH_WINDOW, 1);
        notAbove(values, ConfigKey.STAGNATION_NEAR_IDENTICAL, ConfigKey.STAGNATION_AMBIGUOUS_HIGH);
        if (values.whole(ConfigKey.SHELL_TIMEOUT_S) > values.whole(ConfigKey.SHELL_MAX_TIMEOUT_S)) {
            throw new ConfigException(ConfigKey.SHELL_TIMEOUT_S.fullName() + " = "
                    + values.display(ConfigKey.SHELL_TIMEOUT_S) + " (from " + values.origin(ConfigKey.SHELL_TIMEOUT_S)
                    + ") is above " + ConfigKey.SHELL_MAX_TIMEOUT_S.fullName() + " = "
                    + values.display(ConfigKey.SHELL_MAX_TIMEOUT_S) + " (from "
                    + values.origin(ConfigKey.SHELL_MAX_TIMEOUT_S) + "): lower the one or raise the other");
        }
    }

    /** Registry ids are unique and not "main" (the configured LLM); options only where provider ollama sends them. */
    private static void checkRegistry(ConfigValues values) {
        java.util.Set<String> ids = new java.util.HashSet<>();
        List<RegistryEntry> entries = values.registry();
        for (int i = 0; i < entries.size(); i++) {
            RegistryEntry e = entries.get(i);
            String where = ConfigKey.LLM_REGISTRY.fullName() + " entry " + (i + 1) + " (from "
                    + values.origin(ConfigKey.LLM_REGISTRY) + ")";
            if (e.id().equals("main")) {
                throw new ConfigException(where + " has id \"main\", the name of the LLM [llm] configures: choose"
                        + " another id");
            }
            if (!ids.add(e.id())) {
                throw new ConfigException(where + " repeats the id \"" + e.id() + "\": give each entry its own id");
            }
            if (e.commands() == CommandsMode.JSON && e.provider() == Provider.ANTHROPIC) {
                throw new ConfigException(where + " has commands = \"json\", " + NO_JSON_FOR_ANTHROPIC);
            }
            if (!e.options().isEmpty() && e.provider() != Provider.OLLAMA) {
                throw new ConfigException(where + " has options, which only provider ollama sends: set provider ="
                        + " \"ollama\" or remove them");
            }
        }
    }

    /**
     * {@code low} must be below {@code high} (or, with {@code slack} 1, at most {@code high}), e.g.
     * {@code safety.repeat_alert_at = 5 (from env AGENT_SAFETY_REPEAT_ALERT_AT) is not below safety.repeat_lock_at
     * = 5 (from default): use a whole number from 1 to 4, or raise safety.repeat_lock_at}.
     */
    private static void below(ConfigValues values, ConfigKey low, ConfigKey high, int slack) {
        long limit = values.whole(high) - 1 + slack;
        if (values.whole(low) <= limit) return;
        long min = ((ValueType.WholeNumber) low.type()).min();
        throw new ConfigException(low.fullName() + " = " + values.display(low) + " (from " + values.origin(low) + ") is "
                + (slack == 0 ? "not below " : "above ") + high.fullName() + " = " + values.display(high)
                + " (from " + values.origin(high) + "): use a whole number from " + min + " to " + limit
                + ", or raise " + high.fullName());
    }

    /**
     * The decimal {@code low} must be at most {@code high}, e.g. {@code stagnation.near_identical = 0.95 (from env
     * AGENT_STAGNATION_NEAR_IDENTICAL) is above stagnation.ambiguous_high = 0.9 (from default): use a number from 0
     * to 0.9, or raise stagnation.ambiguous_high}.
     */
    private static void notAbove(ConfigValues values, ConfigKey low, ConfigKey high) {
        if (values.decimal(low) <= values.decimal(high)) return;
        ValueType.Decimal type = (ValueType.Decimal) low.type();
        throw new ConfigException(low.fullName() + " = " + values.display(low) + " (from " + values.origin(low)
                + ") is above " + high.fullName() + " = " + values.display(high) + " (from " + values.origin(high)
                + "): use a number from " + ValueType.Decimal.plain(type.min()) + " to "
                + ValueType.Decimal.plain(values.decimal(high)) + ", or raise " + high.fullName());
    }

    private static Object fromText(ConfigKey key, String raw, Origin origin) {
        try {
            return key.type().parse(raw);
        } catch (InvalidValueException e) {
            throw invalid(key, raw.isEmpty() ? "\"\"" : raw, origin, e);
        }
    }

    private static Object fromToml(ConfigKey key, JsonNode node, Origin origin) {
        try {
            return key.type().fromToml(node);
        } catch (InvalidValueException e) {
            throw invalid(key, node.isTextual() ? node.textValue() : node.toString(), origin, e);
        }
    }

    /** E.g. {@code llm.temperature = 5 (from project file ./agent.toml) is out of range: use a number from 0 to 2}. */
    private static ConfigException invalid(ConfigKey key, String shown, Origin origin, InvalidValueException e) {
        return new ConfigException(key.fullName() + " = " + display(key, shown) + " (from " + origin + ") "
                + e.reason() + ": " + key.allowed());
    }

    /** Masks secrets; keeps everything else on one short line. */
    private static String display(ConfigKey key, String shown) {
        if (key.secret()) {
            return Secrets.mask(shown);
        }
        // a URL's user and password are secrets wherever they are: in llm.base_url, or inside a table's entries
        String oneLine = (key == ConfigKey.LLM_BASE_URL ? Secrets.redactUrl(shown) : Secrets.redactUrlsIn(shown))
                .replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t");
        return oneLine.length() <= MAX_SHOWN_VALUE ? oneLine : oneLine.substring(0, MAX_SHOWN_VALUE) + "…";
    }
}
