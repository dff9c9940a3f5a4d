package dev.hmpagent.commands;

import static dev.hmpagent.commands.CommandResults.fail;
import static dev.hmpagent.commands.CommandResults.resultOf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.commands.CommandResults.Result;
import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.safety.OperationListener;
import dev.hmpagent.safety.SafetyState;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.safety.StopReason;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.ProcessStatus;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Runs the pending commands of committed replies, one by one, outside the tick's transaction: asks the gate
 * (and, when it says ASK, a person) first, runs a row of database-only commands in one transaction, each in a
 * savepoint ({@link CommandBatch}), every other handler in its own short transaction, and reports every outcome to
 * one listener. Between two commands it asks the {@link StopSignal}: after a halt the
 * commands it did not run end as {@code error} with code EHALT and never run later.
 */
public final class CommandExecutor {
    static final String HALTED = "the agent was halted before this command ran";

    /** What one run did; {@code stoppedBy} is set when the file refused a write and the rest waits for the next run. */
    public record Executed(List<CommandRun> runs, Optional<StoreException> stoppedBy, boolean halted) { }

    private final Store store;
    private final CommandRegistry registry;
    private final CommandGate gate;
    private final Approver approver;
    private final ProcessLogDao processLog;
    private final Completions completions;
    /** How results are written: now, and when external commands hand them in. */
    private final CommandResults results;
    /** Stops the work of a row that started while a halt came in (its process is killed like the others). */
    private java.util.function.LongConsumer stopAfterHalt = id -> { };

    public CommandExecutor(Store store, CommandRegistry registry, ObjectMapper mapper, CommandGate gate,
                           Approver approver, OperationListener outcomes) {
        this(store, registry, mapper, gate, approver, outcomes, new Completions());
    }

    /** With {@code completions}: where external commands (processes, second LLM calls) hand in their results. */
    public CommandExecutor(Store store, CommandRegistry registry, ObjectMapper mapper, CommandGate gate,
                           Approver approver, OperationListener outcomes, Completions completions) {
        this.store = Objects.requireNonNull(store, "store");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.approver = Objects.requireNonNull(approver, "approver");
        this.processLog = store.tables().processLog();
        this.completions = Objects.requireNonNull(completions, "completions");
        this.results = new CommandResults(store, registry, Objects.requireNonNull(mapper, "mapper"),
                Objects.requireNonNull(outcomes, "outcomes"), completions);
    }

    /** What stops an external command's work that started just as a halt came in (the process runner's stop). */
    public void onStartedDuringHalt(java.util.function.LongConsumer stop) {
        this.stopAfterHalt = Objects.requireNonNull(stop, "stop");
    }

    /**
     * Writes the results external commands handed in since the last call (HMP step 1), each in its own
     * transaction; a result whose row a halt or a restart already ended is dropped. Returns what was written.
     * When the file refuses a write, what is left waits for the next call.
     */
    public List<CommandRun> recordResults(Consumer<CommandRun> onEach) {
        return results.recordResults(onEach);
    }

    /**
     * Runs every pending command of {@code tickId} in order. A halt heard after {@code halt} is looked for before each
     * command (and while a person is asked); the persisted safety state is read through the same signal inside each
     * command's transaction, so a halt from another process that committed first always wins. {@code leaving} (the
     * process is ending) withdraws a question to a person: the command and the ones after it stay pending, and the
     * next start marks them offline (not run, the LLM is told).
     */
    public Executed runPending(long tickId, String llmId, StopSignal.Since halt, BooleanSupplier leaving,
                               Consumer<CommandRun> onEach) {
        List<CommandRun> runs = new ArrayList<>();
        try (CommandBatch batch = new CommandBatch(store.batch(), runs, onEach)) {
            for (ProcessRow row : processLog.pending(tickId)) {
                try {
                    if (halt.halted()) return halted(tickId, halt, batch, runs, onEach);
                    if (!registry.databaseOnly(row.name())) batch.commit();   // its own transaction, as it may wait
                    Optional<CommandRun> run = runOne(row, llmId, halt, leaving, batch);
                    if (run.isEmpty() && !halt.halted() && leaving.getAsBoolean()) {
                        batch.commit();
                        return new Executed(runs, Optional.empty(), false);   // leaving: the rest stays pending
                    }
                    if (run.isEmpty()) return halted(tickId, halt, batch, runs, onEach);
                    batch.add(run.get());
                } catch (StoreException e) {
                    // the row stays pending: the next run tries it again (a restart turns it offline, a halt EHALT)
                    batch.commitWhatRan();
                    return new Executed(runs, Optional.of(e), false);
                }
            }
            batch.commit();
        }
        return new Executed(runs, Optional.empty(), false);
    }

    /** A halt came: what ran is committed, then every command not yet run ends as EHALT. */
    private Executed halted(long tickId, StopSignal.Since halt, CommandBatch batch, List<CommandRun> runs,
                            Consumer<CommandRun> onEach) {
        batch.commit();
        return new Executed(runs, Optional.empty(), haltAll(tickId, halt, runs, onEach));
    }

    /** Ends every command not yet run as EHALT; returns true. */
    private boolean haltAll(long tickId, StopSignal.Since halt, List<CommandRun> runs, Consumer<CommandRun> onEach) {
        List<ProcessRow> left = processLog.pending(tickId);
        // not always a person's halt: the monitor may have locked the agent on the command before (a refused repeat)
        String why = store.inTransaction(() -> {
            SafetyStatus state = halt.signal().persisted();
            boolean halted = state.state() == SafetyState.STOPPED
                    && state.reason().equals(Optional.of(StopReason.HALT));
            String reason = state.active() || halted ? HALTED : "the agent was stopped (" + state.state()
                    + (state.detail().isEmpty() ? "" : ": " + state.detail()) + ") before this command ran";
            processLog.haltPending(reason);
            return reason;
        });
        for (ProcessRow r : left) {
            CommandRun run = new CommandRun(r.id(), r.cmdId(), r.name(), ProcessStatus.ERROR.column(), "not run: " + why,
                    Optional.empty(), Optional.empty());
            runs.add(run);
            onEach.accept(run);
        }
        return true;
    }

    /** Runs one row; empty when a halt came first (the caller ends this one and the rest as EHALT). */
    private Optional<CommandRun> runOne(ProcessRow row, String llmId, StopSignal.Since halt, BooleanSupplier leaving,
                                        CommandBatch batch) {
        PendingCommand command;
        try {
            command = results.pendingCommand(row);
        } catch (IllegalArgumentException e) {
            return finishedNow(row, llmId, halt, fail(row.name(), row.fingerprint(), ErrorCode.EINVAL, e.getMessage()));
        }
        CommandGate.Decision decision = gate.check(command);   // first: a reserved type is refused, known or not
        if (halt.halted()) return Optional.empty();
        Optional<CommandHandler> handler = registry.find(command.type());
        if (handler.isEmpty() && decision.verdict() == CommandGate.Verdict.ALLOW) {
            return finishedNow(row, llmId, halt, fail(command.type(), command.fingerprint(), ErrorCode.EINVAL,
                    "unknown command type \"" + command.type() + "\"; known types: " + String.join(", ", registry.types())));
        }
        switch (decision.verdict()) {
            case DENY -> {
                return finishedNow(row, llmId, halt, fail(command.type(), command.fingerprint(), decision.code(),
                        command.type() + " refused: " + decision.reason()));
            }
            case REFUSE -> {
                return refused(row, command, decision);
            }
            case ASK -> {
                batch.commit();   // a person may take minutes: the file is not held meanwhile
                return asked(row, command, decision, llmId, halt, leaving, batch);
            }
            case ALLOW -> { }
        }
        return allowed(row, command, llmId, halt, batch);
    }

    /** The gate said ASK: a person decides; empty when a halt came or the process is leaving meanwhile. */
    private Optional<CommandRun> asked(ProcessRow row, PendingCommand command, CommandGate.Decision decision,
                                       String llmId, StopSignal.Since halt, BooleanSupplier leaving, CommandBatch batch) {
        Approver.Answer answer = approver.ask(command, decision.reason(), () -> halt.halted() || leaving.getAsBoolean());
        if (halt.halted() || leaving.getAsBoolean()) return Optional.empty();
        if (answer == Approver.Answer.NO) {
            String why = approver.personPresent() ? "the person at the terminal said no"
                    : "nobody is at a terminal to approve it (" + decision.reason() + "); a person can allow it in agent.toml";
            return finishedNow(row, llmId, halt, fail(command.type(), command.fingerprint(), ErrorCode.EPERM,
                    command.type() + " not approved: " + why));
        }
        if (answer == Approver.Answer.ALWAYS) gate.allowForSession(command);
        return allowed(row, command, llmId, halt, batch);
    }

    /** Refused, and the agent locked by the same verdict: recorded as such, not as a halt. */
    private Optional<CommandRun> refused(ProcessRow row, PendingCommand command, CommandGate.Decision decision) {
        Result refused = fail(command.type(), command.fingerprint(), decision.code(),
                command.type() + " refused: " + decision.reason());
        JsonNode args = results.argsOf(row);
        Result shown = store.inTransaction(() -> results.finish(row, args, refused));
        return shown == null ? Optional.empty() : Optional.of(results.reported(row, shown));
    }

    /** A command the gate (or a person) allowed: run, unless it holds a secret or nothing handles its type. */
    private Optional<CommandRun> allowed(ProcessRow row, PendingCommand command, String llmId, StopSignal.Since halt,
                                         CommandBatch batch) {
        Optional<CommandHandler> handler = registry.find(command.type());
        List<String> secrets = CommandQueue.redactedPaths(command.args(), "args");
        if (!secrets.isEmpty()) {
            // the secret was never stored, so the command cannot run with it; and it must not run without it
            return finishedNow(row, llmId, halt, fail(command.type(), command.fingerprint(), ErrorCode.EPERM,
                    command.type() + " refused: " + String.join(", ", secrets) + (secrets.size() == 1 ? " looks" : " look")
                    + " like a secret: not stored, and the command did not run; never write a secret in a command,"
                    + " name where it lives instead (secret_ref: env:NAME or keyring:entry)"));
        }
        if (handler.isEmpty()) return finishedNow(row, llmId, halt, fail(command.type(), command.fingerprint(),
                ErrorCode.EINVAL, "unknown command type \"" + command.type() + "\""));
        if (handler.get() instanceof ExternalCommand external) return start(row, command, external, llmId, halt);
        if (registry.databaseOnly(command.type())) batch.open();
        return execute(row, command, handler.get(), llmId, halt);
    }

    /** Marks the row running and starts the work outside any transaction; its result arrives through completions. */
    private Optional<CommandRun> start(ProcessRow row, PendingCommand command, ExternalCommand handler, String llmId,
                                       StopSignal.Since halt) {
        boolean claimed = store.inTransaction(() -> !halt.halted() && mayRun(row.id(), halt)
                && processLog.startRunning(row.id()));
        if (!claimed) return Optional.empty();
        CommandContext ctx = new CommandContext(row.tickId(), llmId, registry, store);
        Optional<CommandOutcome> endedAtOnce;
        try {
            endedAtOnce = handler.start(argsFor(command, handler), ctx, row.id(),
                    outcome -> completions.add(row.id(), outcome));
        } catch (CommandArgException e) {
            endedAtOnce = Optional.of(CommandOutcome.error(ErrorCode.EINVAL, e.getMessage()));
        } catch (RuntimeException e) {   // a command that cannot start is one failed command, not a failed tick
            endedAtOnce = Optional.of(CommandOutcome.error(ErrorCode.EUNKNOWN, command.type() + " could not start: "
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + Args.abbreviate(e.getMessage()))));
        }
        // the row is running now: whatever ended it at once is written the way every asynchronous result is
        // (recordResults, which keeps it and tries again while the file refuses writes), never lost, never stuck
        endedAtOnce.ifPresent(outcome -> completions.add(row.id(), outcome));
        if (endedAtOnce.isEmpty() && halt.halted()) stopAfterHalt.accept(row.id());
        return Optional.of(new CommandRun(row.id(), row.cmdId(), row.name(), ProcessStatus.RUNNING.column(), "started; its result comes in a "
                + "later tick", Optional.empty(), Optional.empty()));
    }

    private Optional<CommandRun> execute(ProcessRow row, PendingCommand command, CommandHandler handler, String llmId,
                                         StopSignal.Since halt) {
        CommandContext ctx = new CommandContext(row.tickId(), llmId, registry, store);
        Args args = argsFor(command, handler);
        Result attempt;
        try {
            attempt = handler.waits() ? waited(row, command, handler, args, ctx, halt) : store.inTransaction(() -> {
                if (halt.halted() || !mayRun(row.id(), halt)) return null;
                CommandOutcome outcome = handler.execute(args, ctx);
                Result result = resultOf(command.type(), command.fingerprint(), outcome, handler.informs());
                return results.finish(row, args.node(), result);
            });
        } catch (CommandArgException e) {
            return finishedNow(row, llmId, halt, results.slip(command, e));
        } catch (StoreException e) {
            throw e;
        } catch (RuntimeException e) {
            // a crashed handler is one failed command (its writes rolled back), not a failed tick
            String msg = command.type() + " crashed: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + Args.abbreviate(e.getMessage()));
            return finishedNow(row, llmId, halt, fail(command.type(), command.fingerprint(), ErrorCode.EUNKNOWN, msg));
        }
        if (attempt == null) return Optional.empty();
        return Optional.of(results.reported(row, attempt));
    }

    /**
     * A handler that {@link CommandHandler#waits}: allowed in one short transaction, run outside any, its result
     * written in another, so the file's write lock is never held while it waits. Null when a halt came first.
     */
    private Result waited(ProcessRow row, PendingCommand command, CommandHandler handler, Args args, CommandContext ctx,
                          StopSignal.Since halt) {
        if (!store.inTransaction(() -> !halt.halted() && mayRun(row.id(), halt))) return null;
        CommandOutcome outcome = handler.execute(args, ctx);
        Result result = resultOf(command.type(), command.fingerprint(), outcome, handler.informs());
        return store.inTransaction(() -> mayRun(row.id(), halt) ? results.finish(row, args.node(), result) : null);
    }

    private static Args argsFor(PendingCommand command, CommandHandler handler) {
        return new Args(command.type(), handler.argsExample(), command.args());
    }

    /** Records a result decided without running the handler, in its own transaction. */
    private Optional<CommandRun> finishedNow(ProcessRow row, String llmId, StopSignal.Since halt,
                                                 Result result) {
        JsonNode args = results.argsOf(row);
        Result shown = store.inTransaction(() -> mayRun(row.id(), halt) ? results.finish(row, args, result) : null);
        return shown == null ? Optional.empty() : Optional.of(results.reported(row, shown));
    }

    /** Inside a command's transaction: the agent is still ACTIVE and the row still pending (a halt ends both). */
    private boolean mayRun(long id, StopSignal.Since halt) {
        return halt.signal().active()
                && processLog.status(id).filter(s -> s == ProcessStatus.PENDING).isPresent();
    }
}
