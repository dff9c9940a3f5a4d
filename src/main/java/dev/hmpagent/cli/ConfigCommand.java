package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import picocli.CommandLine.Command;

/**
 * {@code agent config}: every effective value and where it came from, secrets masked; then, when the agent's
 * file exists, the cycle settings the LLM changed (read-only, never created or migrated).
 */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = "Print every effective config value and where it came from (secrets masked).",
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent config                           # every key, its value and its source",
                "  agent config --config team.toml --set llm.temperature=0.2",
                "  OLLAMA_HOST=gpu-box agent config       # llm.base_url from env OLLAMA_HOST"})
final class ConfigCommand extends Subcommand {

    ConfigCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() {
        lines(loaded(), launch().clock()).forEach(out()::println);
        out().flush();
        return ExitCodes.OK;
    }

    /**
     * What {@code agent config} prints (and /config shows): every effective value with where it came from, secrets
     * masked; then the settings the LLM changed in the agent's file, when it exists (read-only).
     */
    static java.util.List<String> lines(dev.hmpagent.config.LoadedConfig loaded, java.time.Clock clock) {
        java.util.List<String> lines = new java.util.ArrayList<>(loaded.describe());
        lines.addAll(llmSettings(loaded.config().agent().db().toAbsolutePath(), clock));
        return java.util.List.copyOf(lines);
    }

    /** "set by the LLM at tick N" lines for the settings the LLM changed, within agent.toml's bounds. */
    private static java.util.List<String> llmSettings(java.nio.file.Path db, java.time.Clock clock) {
        if (!java.nio.file.Files.isRegularFile(db)) return java.util.List.of();
        java.util.List<String> lines = new java.util.ArrayList<>();
        try (dev.hmpagent.store.Store store = dev.hmpagent.store.Store.openReadOnly(db, clock)) {
            dev.hmpagent.store.SettingsDao settings = store.tables().settings();
            settings.all().forEach((key, value) -> settings.tickOf(key).ifPresent(tick ->
                    lines.add(String.format(java.util.Locale.ROOT, "%-24s = %s  (set by the LLM at tick %d; applies "
                            + "within agent.toml's bounds)", key, value, tick))));
        } catch (RuntimeException e) {   // best-effort: the file's part is said to be unreadable, the config still shown
            return java.util.List.of("(the settings the LLM changed could not be read from " + db + ": "
                    + e.getMessage() + ")");
        }
        if (!lines.isEmpty()) lines.add(0, "cycle settings the LLM changed (config table of " + db.getFileName() + "):");
        return lines;
    }
}
