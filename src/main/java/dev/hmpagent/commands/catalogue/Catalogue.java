package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandRegistry;

/**
 * Every built-in command family in one place, registered in the order the catalog in context 0 shows them. The
 * composition root builds the registry here; {@code commands} itself knows no family, so the families may import
 * it without a cycle.
 */
public final class Catalogue {
    private Catalogue() {
    }

    /** The built-in commands with agent.toml's defaults. */
    public static CommandRegistry builtIn() {
        return builtIn(CommandOptions.DEFAULTS);
    }

    /** The built-in commands, every family in one place. */
    public static CommandRegistry builtIn(CommandOptions options) {
        return new CommandRegistry()
                .register(CommandRegistry.GENERAL, BuiltInCommands.all())
                .register("diary", DiaryCommands.all())
                .register("notebook (llm_memory)", MemoryCommands.all())
                .register("notes", NotesCommands.all())
                .register("goals and tasks", GoalCommands.all())
                .register("cycle settings", new SettingsCommands(options.settingsBounds()).all())
                .registerCompact("concepts and links", ConceptCommands.all())
                .registerCompact("cleanup", new CleanupCommands(options.cleanupMinAgeTicks()).all())
                .registerCompact("strategies and ratings", StrategyCommands.all())
                .registerCompact("scripts", ScriptCommands.all())
                .registerCompact("tables", TableCommands.all())
                .registerCompact("llm registry", LlmRegistryCommands.all())
                .registerCompact("identity", IdentityCommands.all())
                .registerCompact("peers", PeerCommands.all())
                .registerCompact("users", UserCommands.all())
                .registerCompact("external services", ExternalServiceCommands.all())
                .markDatabaseOnly();   // every family above touches only the database
    }
}
