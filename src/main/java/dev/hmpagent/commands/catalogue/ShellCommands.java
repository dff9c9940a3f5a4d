package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.ExternalCommand;
import dev.hmpagent.commands.Signature;
import dev.hmpagent.commands.SimpleCommand;
import dev.hmpagent.policy.FileResult;
import dev.hmpagent.policy.FileRoots;
import dev.hmpagent.process.ProcessResult;
import dev.hmpagent.process.ProcessRunner;
import dev.hmpagent.process.ProcessSpec;
import dev.hmpagent.process.RunningProcess;
import dev.hmpagent.process.SetIdBits;
import dev.hmpagent.process.StartResult;
import dev.hmpagent.process.WriteQuota;
import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.ProcessStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * External processes, the HMP way: {@code shell} starts a child process without blocking the tick loop, its row
 * stays {@code running}, and the tick after it ends shows its result in context 2 (the LLM never sees stdout
 * except through {@code process_log.result}). The shell policy has checked the command line before this runs.
 */
public final class ShellCommands {
    /**
     * What agent.toml bounds.
     *
     * @param scriptsDir where {@code script_run} writes the agent's scripts before running them (outside the roots)
     */
    public record Limits(Duration defaultTimeout, Duration maxTimeout, long cleanupFloorTicks, Path scriptsDir) {
        public Limits {
            Objects.requireNonNull(defaultTimeout, "defaultTimeout");
            Objects.requireNonNull(maxTimeout, "maxTimeout");
            Objects.requireNonNull(scriptsDir, "scriptsDir");
            if (defaultTimeout.compareTo(maxTimeout) > 0) throw new IllegalArgumentException("default timeout > max");
        }
    }

    static final String STOPPED_BY_LLM = "stopped by process_stop";
    /**
     * Why the agent stops its processes on a clean exit: not a failure of the command (no pain), a warning the LLM
     * reads at the next start.
     */
    public static final String STOPPED_AT_EXIT = "stopped because the agent exited";

    private final ProcessRunner runner;
    private final FileRoots roots;
    private final Limits limits;
    private final java.time.Clock clock;
    private final String confinement;
    private final WriteQuota quota;
    private final SetIdBits setIdBits;
    private final InstructionsGuard instructions;

    public ShellCommands(ProcessRunner runner, FileRoots roots, Limits limits, java.time.Clock clock) {
        this(runner, roots, limits, clock, "", WriteQuota.unlimited());
    }

    /**
     * @param confinement one sentence for context 0: what the commands can reach (the sandbox, or its fallback)
     * @param quota       what the commands of one task may add to the file roots
     */
    public ShellCommands(ProcessRunner runner, FileRoots roots, Limits limits, java.time.Clock clock, String confinement,
                         WriteQuota quota) {
        this.quota = Objects.requireNonNull(quota, "quota");
        this.setIdBits = SetIdBits.in(roots.roots());
        this.instructions = new InstructionsGuard(roots::askedInRoots);
        this.confinement = Objects.requireNonNull(confinement, "confinement");
        this.runner = Objects.requireNonNull(runner, "runner");
        this.roots = Objects.requireNonNull(roots, "roots");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public List<CommandHandler> all() {
        return List.of(shell(), scriptRun(), processStop(), processList(), processCleanup());
    }

    private CommandHandler shell() {
        return new External("shell", "run a shell command line as a child process (result arrives in a later tick)"
                + (confinement.isEmpty() ? "" : ". " + confinement),
                "{\"command\": \"ls -la\", \"cwd\": \"workspace\", \"timeout_s\": 30}",
                Signature.parse("command|cmd: string, cwd?: string, timeout_s?: integer"), (args, ctx, id, onDone) -> run(args.requiredText("command"), args, ctx, id, onDone));
    }

    private CommandHandler scriptRun() {
        return new External("script_run", "run one of your scripts as a child process, with args (like shell)",
                "{\"name\": \"report\", \"args\": [\"--short\"], \"timeout_s\": 30}",
                Signature.parse("name: string, args?: array, cwd?: string, timeout_s?: integer"), (args, ctx, id, onDone) -> {
            Optional<dev.hmpagent.store.ScriptLaunch> launch = scriptLaunch(ctx.tables().scripts(),
                    args.requiredText("name"), args.list("args"));
            if (launch.isEmpty()) {
                return Optional.of(CommandOutcome.notFound("script_run: no script \"" + args.requiredText("name")
                        + "\"; scripts_list shows yours"));
            }
            // a sandbox shows the script's file, read-only, to this command alone
            return run(launch.get().commandLine(), args, ctx, id, onDone, List.of(launch.get().file()));
        });
    }

    /**
     * The command line that runs the newest version of script {@code name} with {@code args} (writing its code
     * to the scripts folder first, so the file always matches the database); empty when there is no such script.
     * The policy checks this line like any shell command.
     */
    public Optional<String> scriptLine(dev.hmpagent.store.ScriptsDao scripts, String name, List<String> args) {
        return scriptLaunch(scripts, name, args).map(dev.hmpagent.store.ScriptLaunch::commandLine);
    }

    /** As {@link #scriptLine}, with the script's file: its code written out, and how to start it. */
    public Optional<dev.hmpagent.store.ScriptLaunch> scriptLaunch(dev.hmpagent.store.ScriptsDao scripts, String name,
                                                                 List<String> args) {
        return scripts.latest(name).map(row -> dev.hmpagent.store.ScriptLaunch.prepare(row, limits.scriptsDir(), args));
    }

    /** As {@link #scriptLaunch}, for a pending {@code script_run} command: its name and args as the reply gave them. */
    public Optional<dev.hmpagent.store.ScriptLaunch> scriptLaunch(dev.hmpagent.store.ScriptsDao scripts,
                                                                 dev.hmpagent.commands.PendingCommand c) {
        List<String> args = new java.util.ArrayList<>();
        com.fasterxml.jackson.databind.JsonNode a = c.args().path("args");
        if (a.isArray()) a.forEach(n -> args.add(n.asText()));
        else if (a.isValueNode() && !a.isNull()) args.add(a.asText());
        return scriptLaunch(scripts, c.args().path("name").asText(""), args);
    }

    private Optional<CommandOutcome> run(String command, Args args, CommandContext ctx, long id,
                                         Consumer<CommandOutcome> onDone) {
        return run(command, args, ctx, id, onDone, List.of());
    }

    private Optional<CommandOutcome> run(String command, Args args, CommandContext ctx, long id,
                                         Consumer<CommandOutcome> onDone, List<Path> readOnlyFiles) {
        {
            long maxS = limits.maxTimeout().toSeconds();
            long timeoutS = args.optionalLong("timeout_s").orElse(limits.defaultTimeout().toSeconds());
            if (timeoutS < 1 || timeoutS > maxS) {
                throw args.bad("args.timeout_s must be from 1 to " + maxS + " (shell.max_timeout_s in agent.toml)");
            }
            Optional<String> cwdArg = args.optionalText("cwd").filter(s -> !s.isBlank());
            FileResult<Path> cwd = cwdArg.isPresent() ? roots.resolve(cwdArg.get(), FileRoots.Access.LIST)
                    : roots.resolve(".", FileRoots.Access.LIST);
            if (!cwd.ok()) return Optional.of(CommandOutcome.error(cwd.code(), "shell: cwd " + cwd.message()));
            Optional<String> over = quota.over(ctx.tables().safetyCounters().current().taskStartedAt());
            if (over.isPresent()) return Optional.of(CommandOutcome.error(ErrorCode.EDQUOT, "shell refused: " + over.get()));
            quota.meter(runner);
            Optional<Path> stamp = stamp();
            instructions.started();
            StartResult started = runner.start(new ProcessSpec(id, command, cwd.value(), Duration.ofSeconds(timeoutS),
                            readOnlyFiles),
                    result -> onDone.accept(setIdCleared(keptInstructions(outcome(result), id), stamp)));
            if (!(started instanceof StartResult.Started)) instructions.abandoned();
            if (started instanceof StartResult.Refused r) {
                return Optional.of(CommandOutcome.error(ErrorCode.EBUSY, "shell: " + r.reason()));
            }
            if (started instanceof StartResult.FailedToStart f) return Optional.of(outcome(f.result()));
            return Optional.empty();
        }
    }

    /** The outcome, failed with EPERM and a line for each standing-instructions file the command changed. */
    private CommandOutcome keptInstructions(CommandOutcome outcome, long id) {
        List<String> changed = instructions.ended(id);
        if (changed.isEmpty()) return outcome;
        return CommandOutcome.error(ErrorCode.EPERM, outcome.result() + "\n" + String.join("\n", changed));
    }

    /** The start of a command, for {@link SetIdBits}; empty when no temporary file can be made. */
    private static Optional<Path> stamp() {
        try {
            return Optional.of(SetIdBits.stamp());
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The outcome, with a line naming the files whose set-ID bits were taken off (see {@link SetIdBits}). With
     * commands running at once, the first of them to end clears what any of them set meanwhile, so the line says
     * "while this command ran", not that this one set them.
     */
    private CommandOutcome setIdCleared(CommandOutcome outcome, Optional<Path> stamp) {
        if (stamp.isEmpty()) return outcome;
        List<Path> cleared = setIdBits.clearSince(stamp.get());
        try {
            java.nio.file.Files.deleteIfExists(stamp.get());
        } catch (java.io.IOException e) {
            // a stamp left in the temp folder: harmless
        }
        if (cleared.isEmpty()) return outcome;
        return new CommandOutcome(outcome.status(), outcome.result() + "\nthe set-user-ID and set-group-ID bits were"
                + " taken off " + cleared.size() + (cleared.size() == 1 ? " file" : " files") + " they were set on"
                + " while this command ran (outside the sandbox they would run as their owner): " + cleared.stream().limit(5)
                .map(Path::toString).collect(java.util.stream.Collectors.joining(", ")), outcome.messageToUser(),
                outcome.code());
    }

    /** How a finished process reads in context 2. */
    static CommandOutcome outcome(ProcessResult r) {
        String took = String.format(Locale.ROOT, "%.1f s", r.duration().toMillis() / 1000.0);
        String output = r.output().isEmpty() ? "(no output)" : r.output();
        String text = r.reason() + " after " + took + "\n" + output;
        return switch (r.status()) {
            case OK -> CommandOutcome.ok(text);
            case ERROR -> CommandOutcome.error(ErrorCode.exit(r.optionalExitCode().orElse(-1)), text);
            case TIMEOUT -> new CommandOutcome(ProcessStatus.TIMEOUT.column(), text, Optional.empty(), ErrorCode.ETIMEDOUT);
            case KILLED -> r.reason().contains(STOPPED_BY_LLM) || r.reason().startsWith(STOPPED_AT_EXIT)
                    ? new CommandOutcome(ProcessStatus.WARNING.column(), text, Optional.empty())
                    : CommandOutcome.error(r.reason().startsWith(WriteQuota.STOPPED) ? ErrorCode.EDQUOT
                    : ErrorCode.EHALT, text);
            case FAILED_TO_START -> CommandOutcome.error(ErrorCode.ENOENT, "could not start: " + r.reason());
            case SANDBOX_FAILED -> CommandOutcome.error(ErrorCode.ESANDBOX, "not run: " + r.reason() + "\nThe machine"
                    + " broke, not your command, and it is not counted against you; a person has been told. Do not"
                    + " retry shell or script_run until someone says it works again.");
        };
    }

    private CommandHandler processStop() {
        return new External("process_stop", "stop a running process and its children by process_log id or cmd_id",
                "{\"id\": 42}", Signature.parse("id: string"), (args, ctx, id, onDone) -> {
            String wanted = args.requiredText("id").strip();
            Optional<Long> running = runningRow(ctx, wanted);
            if (running.isEmpty()) {
                return Optional.of(CommandOutcome.notFound("process_stop: no running process with id or cmd_id \""
                        + wanted + "\"; process_list shows the running ones"));
            }
            long target = running.get();
            Thread stopper = new Thread(() -> onDone.accept(runner.stop(target)
                    ? CommandOutcome.ok("process " + target + " and its children were stopped; its own row shows its output")
                    : CommandOutcome.notFound("process_stop: process " + target + " had already ended")),
                    "process-stop-" + target);
            stopper.setDaemon(true);
            stopper.start();
            return Optional.empty();
        });
    }

    /** The row id of a running process named by its process_log id or its cmd_id (the latest with that cmd_id). */
    private Optional<Long> runningRow(CommandContext ctx, String wanted) {
        List<RunningProcess> now = runner.running();
        for (ProcessRow row : ctx.processLog().inFlight()) {
            boolean named = String.valueOf(row.id()).equals(wanted) || wanted.equals(row.cmdId());
            if (named && now.stream().anyMatch(p -> p.id() == row.id())) return Optional.of(row.id());
        }
        return Optional.empty();
    }

    private CommandHandler processList() {
        return SimpleCommand.informing("process_list", "list the processes running now and for how long", "{}",
                (args, ctx) -> {
            List<RunningProcess> now = runner.running();
            if (now.isEmpty()) return CommandOutcome.ok("no process is running");
            Instant at = clock.instant();
            StringBuilder sb = new StringBuilder(now.size() + (now.size() == 1 ? " process" : " processes") + " running"
                    + (runner.pidNote().isEmpty() ? "" : " (pid: the " + runner.pidNote() + ")") + ":");
            for (RunningProcess p : now) {
                sb.append("\n- id ").append(p.id()).append(" (pid ").append(p.pid()).append(", ")
                        .append(Math.max(0, Duration.between(p.startedAt(), at).toSeconds())).append(" s): ")
                        .append(Args.abbreviate(p.command()));
            }
            return CommandOutcome.ok(sb.toString());
        });
    }

    private CommandHandler processCleanup() {
        return new SimpleCommand("process_cleanup", "delete closed process_log rows older than N ticks",
                "{\"older_than_ticks\": 200}", (args, ctx) -> {
            long asked = args.optionalLong("older_than_ticks").orElse(limits.cleanupFloorTicks());
            if (asked < 0) throw args.bad("args.older_than_ticks must not be negative");
            long ticks = Math.max(asked, limits.cleanupFloorTicks());
            long upTo = ctx.tickId() - ticks;
            int n = upTo < 1 ? 0 : ctx.processLog().deleteClosed(upTo, "");
            return CommandOutcome.ok("process_cleanup: " + n + " closed row" + (n == 1 ? "" : "s") + " of tick "
                    + Math.max(upTo, 0) + " or earlier deleted" + (asked < ticks ? " (" + asked
                    + " is below the floor of " + ticks + " ticks agent.toml sets)" : ""));
        }).takes("older_than_ticks?: integer");
    }

    /** An external command made from a function. */
    private interface Starter {
        Optional<CommandOutcome> start(Args args, CommandContext ctx, long id, Consumer<CommandOutcome> onDone);
    }

    private record External(String type, String summary, String argsExample, Signature signature, Starter starter)
            implements ExternalCommand {
        @Override
        public Optional<CommandOutcome> start(Args args, CommandContext context, long processLogId,
                                              Consumer<CommandOutcome> onDone) {
            return starter.start(args, context, processLogId, onDone);
        }
    }
}
