package dev.hmpagent.commands;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.safety.FailureFact;
import dev.hmpagent.safety.Outcome;
import dev.hmpagent.safety.OutcomeListener;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.ProcessStatus;
import dev.hmpagent.store.SafetyDao;
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
 * (and, when it says ASK, a person) first, runs each database-only handler in its own short transaction, and
 * reports every outcome to one listener. Between two commands it reads the control channel: after a halt the
 * commands it did not run end as {@code error} with code EHALT and never run later.
 */
public final class CommandExecutor {
    static final String HALTED = "the agent was halted before this command ran";

    /** What one run did; {@code stoppedBy} is set when the file refused a write and the rest waits for the next run. */
    public record Executed(List<CommandRun> runs, Optional<StoreException> stoppedBy, boolean halted) { }

    private final Store store;
    private final CommandRegistry registry;
    private final ObjectMapper mapper;
    private final CommandGate gate;
    private final Approver approver;
    private final OutcomeListener outcomes;
    private final ProcessLogDao processLog;
    private final AgentLogDao agentLog;
    private final SafetyDao safety;

    public CommandExecutor(Store store, CommandRegistry registry, ObjectMapper mapper, CommandGate gate,
                           Approver approver, OutcomeListener outcomes) {
        this.store = Objects.requireNonNull(store, "store");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.mapper = Objects.requireNonNull(mapper, "mapper");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.approver = Objects.requireNonNull(approver, "approver");
        this.outcomes = Objects.requireNonNull(outcomes, "outcomes");
        this.processLog = new ProcessLogDao(store);
        this.agentLog = new AgentLogDao(store);
        this.safety = new SafetyDao(store);
    }

    /**
     * Runs every pending command of {@code tickId} in order. {@code haltRequested} is read before each command
     * (and while a person is asked); the persisted safety state is read inside each command's transaction, so a
     * halt from another process that committed first always wins.
     */
    public Executed runPending(long tickId, String llmId, BooleanSupplier haltRequested, Consumer<CommandRun> onEach) {
        List<CommandRun> runs = new ArrayList<>();
        List<ProcessRow> pending = processLog.pending(tickId);
        for (ProcessRow row : pending) {
            try {
                if (haltRequested.getAsBoolean()) return new Executed(runs, Optional.empty(), haltAll(tickId, runs, onEach));
                Optional<CommandRun> run = runOne(row, llmId, haltRequested);
                if (run.isEmpty()) return new Executed(runs, Optional.empty(), haltAll(tickId, runs, onEach));
                runs.add(run.get());
                onEach.accept(run.get());
            } catch (StoreException e) {
                // the row stays pending: the next run tries it again (a restart turns it offline, a halt EHALT)
                return new Executed(runs, Optional.of(e), false);
            }
        }
        return new Executed(runs, Optional.empty(), false);
    }

    /** Ends every command not yet run as EHALT; returns true. */
    private boolean haltAll(long tickId, List<CommandRun> runs, Consumer<CommandRun> onEach) {
        List<ProcessRow> left = processLog.pending(tickId);
        store.inTransaction(() -> processLog.haltPending(HALTED));
        for (ProcessRow r : left) {
            CommandRun run = new CommandRun(r.id(), r.cmdId(), r.name(), "error", "not run: " + HALTED, Optional.empty(),
                    Optional.empty());
            runs.add(run);
            onEach.accept(run);
        }
        return true;
    }

    /** Runs one row; empty when a halt came first (the caller ends this one and the rest as EHALT). */
    private Optional<CommandRun> runOne(ProcessRow row, String llmId, BooleanSupplier haltRequested) {
        PendingCommand command;
        try {
            command = pendingCommand(row);
        } catch (IllegalArgumentException e) {
            return finishedNow(row, llmId, fail(row.name(), row.fingerprint(), ErrorCode.EINVAL, e.getMessage()));
        }
        Optional<CommandHandler> handler = registry.find(command.type());
        if (handler.isEmpty()) {
            return finishedNow(row, llmId, fail(command.type(), command.fingerprint(), ErrorCode.EINVAL,
                    "unknown command type \"" + command.type() + "\"; known types: " + String.join(", ", registry.types())));
        }
        CommandGate.Decision decision = gate.check(command);
        if (haltRequested.getAsBoolean()) return Optional.empty();
        switch (decision.verdict()) {
            case DENY, REFUSE -> {
                return finishedNow(row, llmId, fail(command.type(), command.fingerprint(), decision.code(),
                        command.type() + " refused: " + decision.reason()));
            }
            case ASK -> {
                Approver.Answer answer = approver.ask(command, decision.reason(), haltRequested);
                if (haltRequested.getAsBoolean()) return Optional.empty();
                if (answer == Approver.Answer.NO) {
                    String why = approver.personPresent() ? "the person at the terminal said no"
                            : "nobody is at a terminal to approve it (" + decision.reason()
                              + "); a person can allow it in agent.toml";
                    return finishedNow(row, llmId, fail(command.type(), command.fingerprint(), ErrorCode.EPERM,
                            command.type() + " not approved: " + why));
                }
                if (answer == Approver.Answer.ALWAYS) gate.allowForSession(command);
            }
            case ALLOW -> { }
        }
        return execute(row, command, handler.get(), llmId, haltRequested);
    }

    private Optional<CommandRun> execute(ProcessRow row, PendingCommand command, CommandHandler handler, String llmId,
                                         BooleanSupplier haltRequested) {
        CommandContext ctx = new CommandContext(row.tickId(), llmId, registry, store);
        Args args = new Args(command.type(), handler.argsExample(), command.args());
        Attempt attempt;
        try {
            attempt = store.inTransaction(() -> {
                if (haltRequested.getAsBoolean() || !mayRun(row.id())) return null;
                CommandOutcome outcome = handler.execute(args, ctx);
                Result result = outcome.failed()
                        ? fail(command.type(), command.fingerprint(), outcome.code(), outcome.result())
                        : new Result(outcome.processStatus(), outcome.result(), outcome.messageToUser(), Optional.empty(),
                                handler.informs() || outcome.processStatus() == ProcessStatus.WARNING);
                return new Attempt(result, finish(row, result));
            });
        } catch (CommandArgException e) {
            return finishedNow(row, llmId, fail(command.type(), command.fingerprint(), ErrorCode.EINVAL, e.getMessage()));
        } catch (StoreException e) {
            throw e;
        } catch (RuntimeException e) {
            // a crashed handler is one failed command (its writes rolled back), not a failed tick
            String msg = command.type() + " crashed: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + Args.abbreviate(e.getMessage()));
            return finishedNow(row, llmId, fail(command.type(), command.fingerprint(), ErrorCode.EUNKNOWN, msg));
        }
        if (attempt == null) return Optional.empty();
        return Optional.of(reported(row, attempt));
    }

    /** Records a result decided without running the handler, in its own transaction. */
    private Optional<CommandRun> finishedNow(ProcessRow row, String llmId, Result result) {
        Attempt attempt = store.inTransaction(() -> mayRun(row.id()) ? new Attempt(result, finish(row, result)) : null);
        return attempt == null ? Optional.empty() : Optional.of(reported(row, attempt));
    }

    /** Inside a command's transaction: the agent is still ACTIVE and the row still pending (a halt ends both). */
    private boolean mayRun(long id) {
        return safety.current().state().equals("ACTIVE")
                && processLog.status(id).filter(s -> s == ProcessStatus.PENDING).isPresent();
    }

    private boolean finish(ProcessRow row, Result r) {
        FailureFact f = r.failure().orElse(null);
        boolean done = processLog.finish(row.id(), new ProcessLogDao.Finished(r.status(), r.result(),
                f == null ? null : f.code(), f == null ? null : f.severity().column(), f == null ? 0 : f.painLevel(),
                null, r.wake()));
        agentLog.countCommand(row.tickId(), r.failure().isPresent());
        return done;
    }

    private CommandRun reported(ProcessRow row, Attempt attempt) {
        Result r = attempt.result();
        outcomes.onOutcome(row.tickId(), new Outcome(row.id(), row.name(), row.fingerprint() == null ? "" : row.fingerprint(),
                r.status().column(), r.failure()));
        return new CommandRun(row.id(), row.cmdId(), row.name(), r.status().column(), r.result(), r.messageToUser(),
                r.failure());
    }

    private PendingCommand pendingCommand(ProcessRow row) {
        JsonNode node;
        try {
            node = mapper.readTree(row.value() == null ? "" : row.value());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the stored command could not be read back: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) throw new IllegalArgumentException("the stored command is not a JSON object");
        JsonNode args = node.path("args");
        return new PendingCommand(row.id(), row.tickId(), row.cmdId() == null ? "" : row.cmdId(), row.name(),
                args.isObject() ? (ObjectNode) args : mapper.createObjectNode(), node.path("description").asText(""),
                row.fingerprint() == null ? "" : row.fingerprint());
    }

    private static Result fail(String type, String fingerprint, String code, String message) {
        FailureFact fact = FailureFact.command(type, fingerprint == null ? "" : fingerprint, code, message);
        return new Result(ProcessStatus.ERROR, message, Optional.empty(), Optional.of(fact), true);
    }

    private record Result(ProcessStatus status, String result, Optional<UserMessage> messageToUser,
                          Optional<FailureFact> failure, boolean wake) { }

    private record Attempt(Result result, boolean finished) { }
}
