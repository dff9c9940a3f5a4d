package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandRegistry;
import java.util.List;

/**
 * Every command family in one place, registered in the order the catalog in context 0 shows them: the built-in ones
 * on the database, then those that act through the tools of a run (processes, files, idle, delegation, MCP). The
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
        return builtIn(options, PeerLink.NONE);
    }

    /**
     * The built-in commands, the peers family reaching other agents through {@code peers}: its commands that may wait
     * on the network ({@link PeerCommands#networked}) are registered after the database-only ones, so each runs in a
     * transaction of its own or off the tick.
     */
    public static CommandRegistry builtIn(CommandOptions options, PeerLink peers) {
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
                .markDatabaseOnly()   // every family above touches only the database
                .registerCompact("peers", PeerCommands.networked(peers));
    }

    /**
     * Every family of a run: the registry, and the processes family, which the policy asks whether a command launches a
     * script.
     */
    public record Families(CommandRegistry registry, ShellCommands processes) { }

    /**
     * Every family, the built-in ones first and then those backed by {@code tools}: processes, files, the idle
     * commands (in the cycle settings family), delegation, and the MCP servers' tools with their search command when
     * any server is configured.
     */
    public static Families all(CommandOptions options, CatalogueTools tools) {
        CatalogueTools.Limits limits = tools.limits();
        ShellCommands shell = new ShellCommands(tools.processes(), tools.roots(), limits.shell(), tools.clock(),
                tools.confinement(), tools.quota());
        CommandRegistry registry = builtIn(options, tools.peers())
                .register("processes", shell.all())
                .register("files", new FileCommands(tools.roots(), limits.maxReadBytes(), limits.maxWriteBytes()).all())
                .register("cycle settings", new IdleCommands(tools.roots(), limits.maxIdle()).all())
                .register("delegation", tools.delegation())
                .attach(tools.mcp());
        if (tools.mcp().any()) registry.register("mcp", List.of(tools.mcp().searchCommand()));
        return new Families(registry, shell);
    }
}
