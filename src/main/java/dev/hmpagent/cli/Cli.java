package dev.hmpagent.cli;

import dev.hmpagent.config.ConfigException;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.StoreException;
import java.io.PrintWriter;
import java.util.function.Consumer;
import picocli.CommandLine;

/**
 * Builds the picocli command tree: every command's help sections and version, the one handler that turns a
 * command-line mistake into one line and exit 2, and the one that turns exceptions into a message and an exit code.
 */
public final class Cli {
    private Cli() { }

    public static CommandLine commandLine(Launch launch) {
        AgentCommand root = new AgentCommand(launch);
        CommandLine cl = new CommandLine(root);
        cl.addSubcommand("config", new ConfigCommand(root, launch));
        cl.addSubcommand("note", new NoteCommand(root, launch));
        cl.addSubcommand("check", new CheckCommand(root, launch));
        cl.addSubcommand("halt", new HaltCommand(root, launch));
        cl.addSubcommand("unlock", new UnlockCommand(root, launch));
        cl.addSubcommand("status", new StatusCommand(root, launch));
        cl.addSubcommand("run", new RunCommand(root, launch));
        cl.addSubcommand("log", new LogCommand(root, launch));
        cl.addSubcommand("completion", new CompletionCommand());
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
