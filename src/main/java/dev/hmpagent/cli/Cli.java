package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.config.ConfigException;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.StoreException;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import picocli.CommandLine;

/**
 * Builds the picocli command tree: every command's help sections and version, the one handler that turns a
 * command-line mistake into one line and exit 2, and the one that turns exceptions into a message and an exit code.
 */
public final class Cli {
    private Cli() { }

    /** The subcommands, in the order help lists them. */
    static final List<String> SUBCOMMANDS = List.of("config", "note", "check", "halt", "unlock", "status", "run", "log",
            "replay", "mcp", "a2a", "peers", "spawn", "completion");

    /** The whole command tree (help, completion and tests see every subcommand). */
    public static CommandLine commandLine(Launch launch) {
        return commandLine(launch, Set.copyOf(SUBCOMMANDS));
    }

    /**
     * The tree {@code args} need, built by {@code main}: picocli reads every command's annotations when it is added,
     * about a tenth of a second of CPU for the nine, which {@code agent --version} or {@code agent note} has no use
     * for. Every subcommand whose name is one of the arguments is built (one of them is the one that runs, whatever
     * the others are option values), and nothing else; the whole tree when the root's help is asked for before any
     * subcommand, for completion, and when no subcommand is named (the REPL, a mistyped subcommand's did-you-mean),
     * except for a bare {@code --version}.
     */
    public static CommandLine commandLine(Launch launch, String... args) {
        return commandLine(launch, needed(args));
    }

    static Set<String> needed(String... args) {
        Set<String> named = new LinkedHashSet<>();
        boolean rootHelp = false;
        for (String arg : args) {
            if (SUBCOMMANDS.contains(arg)) named.add(arg);
            else if (named.isEmpty() && (arg.equals("-h") || arg.equals("--help") || arg.equals("help"))) rootHelp = true;
        }
        if (bareVersion(args)) return Set.of();
        if (rootHelp || named.isEmpty() || named.contains("completion")) return Set.copyOf(SUBCOMMANDS);
        return named;
    }

    /** {@code agent --version} (or {@code -V}) and nothing else. */
    static boolean bareVersion(String... args) {
        return args.length > 0 && Arrays.stream(args).allMatch(a -> a.equals("-V") || a.equals("--version"));
    }

    private static CommandLine commandLine(Launch launch, Set<String> subcommands) {
        AgentCommand root = new AgentCommand(launch);
        CommandLine cl = new CommandLine(root);
        for (String name : SUBCOMMANDS) {
            if (subcommands.contains(name)) cl.addSubcommand(name, subcommand(name, root, launch));
        }
        everyCommand(cl, c -> {
            c.getCommandSpec().versionProvider(new Version());
            HelpSections.install(c);
        });
        cl.setParameterExceptionHandler(new UsageErrors());
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            err.println("agent: " + oneLine(ex));
            err.flush();
            return exitCode(ex);
        });
        return cl;
    }

    private static Object subcommand(String name, AgentCommand root, Launch launch) {
        return switch (name) {
            case "config" -> new ConfigCommand(root, launch);
            case "note" -> new NoteCommand(root, launch);
            case "check" -> new CheckCommand(root, launch);
            case "halt" -> new HaltCommand(root, launch);
            case "unlock" -> new UnlockCommand(root, launch);
            case "status" -> new StatusCommand(root, launch);
            case "run" -> new RunCommand(root, launch);
            case "log" -> new LogCommand(root, launch);
            case "replay" -> new ReplayCommand(root, launch);
            case "mcp" -> McpCommand.commandLine(root, launch);
            case "a2a" -> A2aCommand.commandLine(root, launch);
            case "peers" -> new PeersCommand(root, launch);
            case "spawn" -> new SpawnCommand(root, launch);
            case "completion" -> new CompletionCommand();
            default -> throw new IllegalArgumentException("no subcommand " + name);
        };
    }

    /**
     * Runs {@code setUp} (quieting the libraries' logging, sqlite's native library) just before a command runs, and
     * not for {@code --version} or {@code --help}, which print from picocli's model alone.
     */
    static void setUpBeforeRunning(CommandLine cl, Runnable setUp) {
        CommandLine.IExecutionStrategy run = new CommandLine.RunLast();
        cl.setExecutionStrategy(parseResult -> {
            Integer helped = CommandLine.executeHelpRequest(parseResult);
            if (helped != null) return helped;
            setUp.run();
            return run.execute(parseResult);
        });
    }

    private static void everyCommand(CommandLine cl, Consumer<CommandLine> action) {
        action.accept(cl);
        cl.getSubcommands().values().forEach(sub -> everyCommand(sub, action));
    }

    static int exitCode(Exception ex) {
        if (ex instanceof ConfigException) return ExitCodes.CONFIG;
        if (ex instanceof RunnerLock.HeldException) return ExitCodes.IN_USE;
        if (ex instanceof StoreException) return ExitCodes.DATABASE;
        return ExitCodes.FAILURE;
    }

    static String oneLine(Exception ex) {
        String msg = ex.getMessage();
        if (msg == null || msg.isBlank()) msg = ex.getClass().getName();
        else if (!(ex instanceof ConfigException || ex instanceof StoreException || ex instanceof RunnerLock.HeldException)) {
            msg = ex.getClass().getSimpleName() + ": " + msg;
        }
        return msg.replaceAll("\\s*\\R\\s*", " ");
    }
}
