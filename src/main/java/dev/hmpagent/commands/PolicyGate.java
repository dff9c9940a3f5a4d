package dev.hmpagent.commands;

import dev.hmpagent.policy.FileResult;
import dev.hmpagent.policy.FileRoots;
import dev.hmpagent.policy.ShellPolicy;
import dev.hmpagent.store.ScriptLaunch;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The human-set policy between the LLM and the machine, as a {@link CommandGate}: command types reserved for
 * people (unlock, halt, budget, policy, safety…) are refused as EPERM; a {@code shell} command line goes through
 * the {@link ShellPolicy} (deny, ask, allow rules; the control surface always denied). File commands check their
 * paths against the {@link FileRoots} themselves, on the file actually opened; a {@code file_write} to the person's
 * standing instructions (AGENTS.md) is asked of a person first.
 */
public final class PolicyGate implements CommandGate {
    private final CommandRegistry registry;
    private final ShellPolicy shell;
    private final FileRoots roots;
    /** For an ASK: the prefixes an "always" answer allows, by process_log id. */
    private final Map<Long, List<String>> asked = new ConcurrentHashMap<>();

    private final java.util.function.Function<PendingCommand, Optional<ScriptLaunch>> scriptLines;

    /**
     * @param scriptLines how a {@code script_run} would start its script (empty: no such script; the handler says
     *                    so); the script's own file in the scripts folder is the one control-surface path it may name
     */
    public PolicyGate(CommandRegistry registry, ShellPolicy shell, FileRoots roots,
                      java.util.function.Function<PendingCommand, Optional<ScriptLaunch>> scriptLines) {
        this.scriptLines = Objects.requireNonNull(scriptLines, "scriptLines");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.shell = Objects.requireNonNull(shell, "shell");
        this.roots = Objects.requireNonNull(roots, "roots");
    }

    @Override
    public Decision check(PendingCommand command) {
        if (CommandRegistry.isReserved(command.type())) {
            String word = CommandRegistry.reservedWord(command.type()).map(w -> " (its word \"" + w + "\")").orElse("");
            return Decision.deny("\"" + command.type() + "\"" + word + " is reserved for people (unlock, halt, budget,"
                    + " policy, safety, guide and lock are never the agent's); do not try again");
        }
        if (command.type().equals("file_write")) return fileWrite(command);
        String line;
        List<Path> ownFiles = List.of();
        if (command.type().equals("shell")) {
            line = command.args().path("command").asText("");
        } else if (command.type().equals("script_run")) {
            // the agent wrote the script: running it is running its interpreter, and the rules decide like for shell
            try {
                Optional<ScriptLaunch> launch = scriptLines.apply(command);
                line = launch.map(ScriptLaunch::commandLine).orElse("");
                ownFiles = launch.map(l -> List.of(l.file())).orElse(List.of());
            } catch (RuntimeException e) {   // fail closed: a script that cannot be prepared is denied, whatever broke
                return Decision.deny("the script could not be prepared to run (" + e.getMessage() + ")");
            }
        } else {
            return Decision.allow();
        }
        if (line.isBlank()) return Decision.allow();   // the handler says how to write the args
        ShellPolicy.Decision d = shell.check(line, workingDir(command), ownFiles);
        return switch (d.verdict()) {
            case ALLOW -> Decision.allow();
            case DENY -> Decision.deny(d.reason());
            case ASK -> {
                asked.clear();   // one question at a time: an earlier one was answered yes or no
                asked.put(command.processLogId(), d.sessionPrefixes());
                yield Decision.ask(d.reason());
            }
        };
    }

    @Override
    public void allowForSession(PendingCommand command) {
        List<String> prefixes = asked.remove(command.processLogId());
        if (prefixes != null) prefixes.forEach(shell::allowForSession);
    }

    /**
     * A write to the person's standing instructions (AGENTS.md) is asked, and denied when nobody can answer, as the
     * shell policy does; any other path the file command checks.
     */
    private Decision fileWrite(PendingCommand command) {
        return roots.askedBeforeWrite(command.args().path("path").asText("")).map(file -> {
            String why = "file_write to " + file + " would change the person's standing instructions, which only a"
                    + " person may change";
            return shell.personPresent() ? Decision.ask(why) : Decision.deny(why + ", and nobody can answer");
        }).orElse(Decision.allow());
    }

    private Path workingDir(PendingCommand command) {
        String cwd = command.args().path("cwd").asText("");
        FileResult<Path> dir = roots.resolve(cwd.isBlank() ? "." : cwd, FileRoots.Access.LIST);
        return dir.ok() ? dir.value() : roots.roots().get(0);
    }
}
