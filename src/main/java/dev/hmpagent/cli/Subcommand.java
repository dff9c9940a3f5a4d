package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.LoadedConfig;
import dev.hmpagent.store.StoreException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What every {@code agent <subcommand>} shares: the common options (which win over the ones given
 * before the subcommand), the launch, the loaded config, and picocli's writers.
 */
abstract class Subcommand implements Callable<Integer> {
    @Mixin CommonOptions options;
    @Spec CommandSpec spec;

    private final AgentCommand root;
    private final Launch launch;
    private AgentConfig forDatabase;

    Subcommand(AgentCommand root, Launch launch) {
        this.root = Objects.requireNonNull(root, "root");
        this.launch = Objects.requireNonNull(launch, "launch");
    }

    final Launch launch() { return launch; }

    final LoadedConfig loaded() {
        return options.over(root.options).load(launch.env());
    }

    final AgentConfig config() {
        return loaded().config();
    }

    /**
     * The config, or, when a file of it is broken, the command line and the environment alone, the error said once
     * as a warning: {@code halt}, {@code note}, {@code status} and {@code unlock} need only the database, and an
     * emergency stop must not wait for a config to be mended.
     */
    final AgentConfig configForDatabase() {
        if (forDatabase == null) {
            try {
                forDatabase = config();
            } catch (dev.hmpagent.config.ConfigException e) {
                err().println("agent: warning: " + e.getMessage() + " (ignored here: this command needs only the"
                        + " database; --db names it)");
                err().flush();
                forDatabase = options.over(root.options).load(launch.env(), false).config();
            }
        }
        return forDatabase;
    }

    /** The config files this run reads (protected from the LLM by the shell and file policies). */
    final java.util.List<java.nio.file.Path> configFiles() {
        return options.over(root.options).configFiles(launch.env());
    }

    /** The common options this command runs with (its own over the root's), as arguments. */
    final java.util.List<String> commonArguments() {
        return options.over(root.options).asArguments();
    }

    final PrintWriter out() { return spec.commandLine().getOut(); }

    final PrintWriter err() { return spec.commandLine().getErr(); }

    /** The agent's file, which must exist (commands that steer or watch an agent never create one). */
    final Path existingDb() {
        Path db = configForDatabase().agent().db().toAbsolutePath();
        if (!Files.isRegularFile(db)) {
            throw new StoreException(db + " does not exist: pass the agent's file with --db"
                    + " (an agent creates it when it first starts)");
        }
        return db;
    }

    /** Prints one line to stdout and flushes. */
    final void say(String line) {
        out().println(line);
        out().flush();
    }
}
