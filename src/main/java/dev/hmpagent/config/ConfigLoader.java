package dev.hmpagent.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
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
        baseUrlFromOllamaHost(values, sources.env());
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
     * When no layer sets llm.base_url, {@code OLLAMA_HOST} (read as Ollama's client reads it) gives its default. Unlike
     * our own variables it is read only then: it is Ollama's too, and a value we cannot use must not stop an agent
     * that is pointed elsewhere.
     */
    private static void baseUrlFromOllamaHost(ConfigValues values, Map<String, String> env) {
        String raw = env.get(OllamaHost.VARIABLE);
        if (raw == null || raw.isBlank() || !values.origin(ConfigKey.LLM_BASE_URL).kind().equals(Origin.DEFAULT)) return;
        try {
            values.set(ConfigKey.LLM_BASE_URL, OllamaHost.baseUrl(raw), Origin.env(OllamaHost.VARIABLE));
        } catch (InvalidValueException e) {
            String shown = OllamaHost.shown(raw);
            throw new ConfigException(OllamaHost.VARIABLE + " = " + (shown.length() <= MAX_SHOWN_VALUE ? shown
                    : shown.substring(0, MAX_SHOWN_VALUE) + "…") + " (read because nothing sets llm.base_url) "
                    + e.reason() + ": " + OllamaHost.EXPECTED);
        }
    }

    /** Constraints between keys, checked on the merged values. */
    private static void checkTogether(ConfigValues values) {
        below(values, ConfigKey.SAFETY_REPEAT_ALERT_AT, ConfigKey.SAFETY_REPEAT_LOCK_AT, 0);
        below(values, ConfigKey.SAFETY_LOOP_ALERT_AT, ConfigKey.SAFETY_LOOP_LOCK_AT, 0);
        below(values, ConfigKey.SAFETY_CASCADE_FAILURES, ConfigKey.SAFETY_CASCADE_WINDOW, 1);
        notAbove(values, ConfigKey.STAGNATION_NEAR_IDENTICAL, ConfigKey.STAGNATION_AMBIGUOUS_HIGH);
        if (values.whole(ConfigKey.SHELL_TIMEOUT_S) > values.whole(ConfigKey.SHELL_MAX_TIMEOUT_S)) {
            throw new ConfigException(ConfigKey.SHELL_TIMEOUT_S.fullName() + " = "
                    + values.display(ConfigKey.SHELL_TIMEOUT_S) + " (from " + values.origin(ConfigKey.SHELL_TIMEOUT_S)
                    + ") is above " + ConfigKey.SHELL_MAX_TIMEOUT_S.fullName() + " = "
                    + values.display(ConfigKey.SHELL_MAX_TIMEOUT_S) + " (from "
                    + values.origin(ConfigKey.SHELL_MAX_TIMEOUT_S) + "): lower the one or raise the other");
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
     * The decimal {@code low} must be at most {@code high}, e.g. {@code stagnation.near_identical = 0.9 (from env
     * AGENT_STAGNATION_NEAR_IDENTICAL) is above stagnation.ambiguous_high = 0.8 (from default): use a number from 0
     * to 0.8, or raise stagnation.ambiguous_high}.
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
        String oneLine = (key == ConfigKey.LLM_BASE_URL ? Secrets.redactUrl(shown) : shown).replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t");
        return oneLine.length() <= MAX_SHOWN_VALUE ? oneLine : oneLine.substring(0, MAX_SHOWN_VALUE) + "…";
    }
}
