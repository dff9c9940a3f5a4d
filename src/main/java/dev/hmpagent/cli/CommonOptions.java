package dev.hmpagent.cli;

import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.config.LoadedConfig;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Options every command takes; they become the highest config layer. */
public final class CommonOptions {
    @Option(names = "--db", paramLabel = "PATH", description = "The agent's SQLite file (default ./agent.db; env AGENT_DB).")
    Path db;

    @Option(names = "--config", paramLabel = "FILE", description = "Config file to read instead of ./agent.toml (must exist).")
    Path config;

    /** The providers --provider takes: what bash and zsh complete it to. */
    static final class Providers extends java.util.ArrayList<String> {
        Providers() {
            super(java.util.Arrays.stream(dev.hmpagent.config.Provider.values())
                    .map(dev.hmpagent.config.Provider::configName).toList());
        }
    }

    @Option(names = "--provider", paramLabel = "NAME", completionCandidates = Providers.class, description = "LLM wire protocol: openai (any OpenAI-compatible server, the default), ollama or anthropic.")
    String provider;

    @Option(names = "--base-url", paramLabel = "URL", description = "API base URL (default: the provider's; for openai%n  $OLLAMA_HOST, else http://localhost:11434/v1).")
    String baseUrl;

    @Option(names = "--model", paramLabel = "NAME", description = "Model name to ask for.")
    String model;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Set any config key, e.g. --set cycle.autonomous=true (repeatable).")
    Map<String, String> sets = new LinkedHashMap<>();

    /** Options given here win over the ones in {@code outer} (for `agent --db a config --db b`). */
    CommonOptions over(CommonOptions outer) {
        CommonOptions merged = new CommonOptions();
        merged.db = db != null ? db : outer.db;
        merged.config = config != null ? config : outer.config;
        merged.provider = provider != null ? provider : outer.provider;
        merged.baseUrl = baseUrl != null ? baseUrl : outer.baseUrl;
        merged.model = model != null ? model : outer.model;
        merged.sets = new LinkedHashMap<>(outer.sets);
        merged.sets.putAll(sets);
        return merged;
    }

    /** These options as command-line arguments, for a command run again in this process with the same settings. */
    java.util.List<String> asArguments() {
        java.util.List<String> args = new java.util.ArrayList<>();
        if (db != null) args.add("--db=" + db);
        if (config != null) args.add("--config=" + config);
        if (provider != null) args.add("--provider=" + provider);
        if (baseUrl != null) args.add("--base-url=" + baseUrl);
        if (model != null) args.add("--model=" + model);
        sets.forEach((k, v) -> args.add("--set=" + k + "=" + v));
        return java.util.List.copyOf(args);
    }

    /**
     * The config files a run may read: the --config file (or ./agent.toml) and the user's file. The shell and file
     * policies never let the LLM touch them, whether they exist yet or not.
     */
    java.util.List<Path> configFiles(Map<String, String> env) {
        java.util.List<Path> files = new java.util.ArrayList<>();
        files.add(config != null ? config : dev.hmpagent.config.ConfigSources.DEFAULT_PROJECT_FILE);
        dev.hmpagent.config.ConfigSources.defaultUserFile(env).ifPresent(files::add);
        return java.util.List.copyOf(files);
    }

    LoadedConfig load(Map<String, String> env) {
        return load(env, true);
    }

    /** With the files ({@link ConfigSources#standard}), or without them (the flags and the environment alone). */
    LoadedConfig load(Map<String, String> env, boolean files) {
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, String> labels = new LinkedHashMap<>();
        sets.forEach((k, v) -> {
            values.put(k, v);
            labels.put(k, "--set " + k);
        });
        put(values, labels, "agent.db", db == null ? null : db.toString(), "--db");
        put(values, labels, "llm.provider", provider, "--provider");
        put(values, labels, "llm.base_url", baseUrl, "--base-url");
        put(values, labels, "llm.model", model, "--model");
        return ConfigLoader.load(files ? ConfigSources.standard(values, labels, env, Optional.ofNullable(config))
                : ConfigSources.withoutFiles(values, labels, env));
    }

    private static void put(Map<String, String> values, Map<String, String> labels, String key, String value, String flag) {
        if (value == null) return;
        values.put(key, value);
        labels.put(key, flag);
    }
}
