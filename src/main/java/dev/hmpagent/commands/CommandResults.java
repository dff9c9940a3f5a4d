package dev.hmpagent.commands;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.safety.FailureFact;
import dev.hmpagent.safety.Operation;
import dev.hmpagent.safety.OperationListener;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.LlmCallsDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.ProcessStatus;
import dev.hmpagent.store.SafetyCountersDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * How a command's result is written, for the {@link CommandExecutor}: the outcome listener told (the SafetyMonitor
 * counts it and says what the LLM sees), the row finished and counted in agent_log, and the results external commands
 * hand in later (HMP step 1) written the same way. Also reads a stored command back as the gate and the handler see it.
 */
final class CommandResults {
    private final Store store;
    private final CommandRegistry registry;
    private final ObjectMapper mapper;
    private final OperationListener outcomes;
    private final ProcessLogDao processLog;
    private final AgentLogDao agentLog;
    private final SafetyCountersDao counters;
    private final LlmCallsDao llmCalls;
    private final Completions completions;
    /** Arguments that do not fit their command are the model's slip: counted there, not by the SafetyMonitor. */
    private final FormatSlips slips;

    CommandResults(Store store, CommandRegistry registry, ObjectMapper mapper, OperationListener outcomes,
                   Completions completions) {
        this.store = store;
        this.registry = registry;
        this.mapper = mapper;
        this.outcomes = outcomes;
        this.processLog = store.tables().processLog();
        this.agentLog = store.tables().agentLog();
        this.counters = store.tables().safetyCounters();
        this.llmCalls = store.tables().llmCalls();
        this.completions = completions;
        this.slips = new FormatSlips(registry, store.tables().settings());
    }

    /**
     * Writes the results external commands handed in since the last call (HMP step 1), each in its own
     * transaction; a result whose row a halt or a restart already ended is dropped. Returns what was written.
     * When the file refuses a write, what is left waits for the next call.
     */
    List<CommandRun> recordResults(Consumer<CommandRun> onEach) {
        List<Completions.Done> done = completions.drain();
        List<CommandRun> runs = new ArrayList<>();
        for (int i = 0; i < done.size(); i++) {
            Completions.Done d = done.get(i);
            Optional<ProcessRow> row;
            try {
                row = processLog.get(d.processLogId());
                if (row.isEmpty()) continue;
                Result result = resultOf(row.get().name(), row.get().fingerprint(), d.outcome(), true);
                CommandOutcome outcome = d.outcome();
                JsonNode args = argsOf(row.get());
                Result written = store.inTransaction(() -> {
                    Result shown = finish(row.get(), args, result);
                    // an llm_task's tokens count toward the tick that asked, so every total includes them
                    if (shown != null && outcome.promptTokens() + outcome.completionTokens() > 0) {
                        agentLog.addTokens(row.get().tickId(), outcome.promptTokens(), outcome.completionTokens());
                        // and toward the task's token budget, as the provider charges (cached prompt tokens a tenth)
                        counters.addTokens(outcome.budgetTokens());
                    }
                    // its calls were made whether or not a halt has ended the row since: each is recorded, for the tick
                    // that asked, by model
                    outcome.llmCalls().forEach(call -> llmCalls.insert(row.get().tickId(), call));
                    return shown;
                });
                if (written == null) continue;
                CommandRun run = reported(row.get(), written);
                runs.add(run);
                onEach.accept(run);
            } catch (StoreException e) {
                completions.putBack(done.subList(i, done.size()));
                throw e;
            }
        }
        return runs;
    }

    /** The arguments the stored command holds (an empty object when it cannot be read back). */
    JsonNode argsOf(ProcessRow row) {
        try {
            return pendingCommand(row).args();
        } catch (IllegalArgumentException e) {
            return mapper.createObjectNode();
        }
    }

    /**
     * Inside a transaction: tells the outcome listener (the SafetyMonitor counts it in this same transaction and
     * says what the LLM sees: the Guide's meaning of a failure, an alert), writes the row and counts it in
     * agent_log; null when the row had already ended (a halt, a restart) and nothing was written.
     */
    Result finish(ProcessRow row, JsonNode args, Result r) {
        if (processLog.status(row.id()).filter(ProcessStatus::inFlight).isEmpty()) return null;
        String fingerprint = row.fingerprint() == null ? "" : row.fingerprint();
        // arguments that do not fit their command are a slip (told, corrected at most twice in a row, never counted);
        // an unknown command type is a failed action like any other, counted by the SafetyMonitor
        boolean wake = r.slip() ? slips.slipped(row.tickId()) : r.wake();
        String shownText = outcomes.onOperation(row.tickId(), Operation.ofCommand(row.id(), row.name(), args,
                fingerprint, r.status().column(), r.result(), r.failure(), r.slip()));
        Result shown = new Result(r.status(), shownText, r.messageToUser(), r.failure(), wake, r.slip());
        FailureFact f = shown.failure().orElse(null);
        processLog.finish(row.id(), new ProcessLogDao.Finished(shown.status(), shown.result(),
                f == null ? null : f.code(), f == null ? null : f.severity().column(), f == null ? 0 : f.painLevel(),
                null, shown.wake()));
        agentLog.countCommand(row.tickId(), shown.failure().isPresent());
        return shown;
    }

    CommandRun reported(ProcessRow row, Result r) {
        return new CommandRun(row.id(), row.cmdId(), row.name(), r.status().column(), r.result(), r.messageToUser(),
                r.failure());
    }

    /**
     * The stored command, its arguments' aliases renamed: what the gate checks, a person is asked about and the
     * handler reads are the same names, also for a row a queue that knew no aliases wrote as the model did.
     */
    PendingCommand pendingCommand(ProcessRow row) {
        JsonNode node;
        try {
            node = mapper.readTree(row.value() == null ? "" : row.value());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the stored command could not be read back: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) throw new IllegalArgumentException("the stored command is not a JSON object");
        JsonNode args = node.path("args");
        return new PendingCommand(row.id(), row.tickId(), row.cmdId() == null ? "" : row.cmdId(), row.name(),
                registry.normalised(row.name(), args.isObject() ? (ObjectNode) args : mapper.createObjectNode()),
                node.path("description").asText(""),
                row.fingerprint() == null ? "" : row.fingerprint());
    }

    static Result resultOf(String type, String fingerprint, CommandOutcome outcome, boolean informs) {
        if (outcome.failed()) return fail(type, fingerprint, outcome.code(), outcome.result(), outcome.processStatus());
        return new Result(outcome.processStatus(), outcome.result(), outcome.messageToUser(), Optional.empty(),
                informs || outcome.processStatus() == ProcessStatus.WARNING, false);
    }

    static Result fail(String type, String fingerprint, String code, String message) {
        return fail(type, fingerprint, code, message, ProcessStatus.ERROR);
    }

    static Result fail(String type, String fingerprint, String code, String message, ProcessStatus status) {
        FailureFact fact = FailureFact.command(type, fingerprint == null ? "" : fingerprint, code, message);
        return new Result(status, message, Optional.empty(), Optional.of(fact), true, false);
    }

    /** Arguments that do not fit their command: the model's format slip, told with one correct command. */
    Result slip(PendingCommand command, CommandArgException e) {
        String message = e.getMessage() + "\n" + slips.correctionFor(command.type());
        FailureFact fact = FailureFact.command(command.type(), command.fingerprint(), ErrorCode.EINVAL, message);
        return new Result(ProcessStatus.ERROR, message, Optional.empty(), Optional.of(fact), true, true);
    }

    /** A command's result as written: what the LLM sees, the person's message, the failure fact, whether it wakes. */
    record Result(ProcessStatus status, String result, Optional<UserMessage> messageToUser,
                  Optional<FailureFact> failure, boolean wake, boolean slip) { }
}
