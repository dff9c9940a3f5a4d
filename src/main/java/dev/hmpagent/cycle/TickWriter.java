package dev.hmpagent.cycle;

import dev.hmpagent.commands.CommandQueue;
import dev.hmpagent.commands.CommandRun;
import dev.hmpagent.commands.FormatSlips;
import dev.hmpagent.commands.ParsedReply;
import dev.hmpagent.context.AssembledPrompt;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.safety.FailureFact;
import dev.hmpagent.safety.Operation;
import dev.hmpagent.safety.OperationListener;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.stagnation.Comparison;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.store.Look;
import dev.hmpagent.store.LlmCallsDao;
import dev.hmpagent.store.A2aTasksDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessStatus;
import dev.hmpagent.store.PromptPart;
import dev.hmpagent.store.PromptsDao;
import dev.hmpagent.store.ResponseRow;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.StagnationDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.TickRecord;
import dev.hmpagent.text.Text;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Writes everything a tick produced in one short transaction, so a killed process leaves either the whole tick
 * or none of it: the reply, the prompt the LLM saw, the read/seen marks, one {@code pending} process_log row per
 * parsed command (a {@code error} row per malformed one) and the {@code agent_log} row. No command runs inside
 * it: the executor runs the pending rows after it committed.
 */
public final class TickWriter {
    /** Successful results close themselves this many ticks after the LLM first saw them. */
    static final int AUTO_CLOSE_AFTER_TICKS = 3;
    /** The {@code process_log.name} of a reply cut for chanting ({@code output_anomaly} before issue 22). */
    static final String CHANTING = "chanting";

    /**
     * What a successful LLM call brought, and what step 5 found about it; {@code calls} is the main call as
     * {@code llm_calls} records it (none when a halt came before it was made); {@code answersPerson}: the prompt
     * held a person's message still unread.
     */
    record Thought(long tickId, Instant start, String reason, AssembledPrompt prompt, Completion completion,
                   ParsedReply parsed, ReplyReview.Reviewed reviewed, Optional<ResponseRow> previous,
                   List<LlmCall> calls, boolean answersPerson) {
        Thought {
            calls = List.copyOf(calls);
        }

        Comparison comparison() {
            return reviewed.comparison();
        }

        /** The same thought with what step 5's model found about it. */
        Thought judged(ReplyReview.Reviewed judged) {
            return new Thought(tickId, start, reason, prompt, completion, parsed, judged, previous, calls, answersPerson);
        }
    }

    /**
     * What was written: the tick's outcome, whether the identical-reply reflex fired, the malformed commands, how many
     * wait to run, and whether the reply was complete (then it has its anti_stagnation_metrics row).
     */
    record Written(String outcome, boolean stagnation, List<CommandRun> malformed, int pending, boolean replied) { }

    private final Store store;
    private final Clock clock;
    private final CommandQueue queue;
    private final OperationListener outcomes;
    private final LlmBreakers breakers;
    private final NotesDao notes;
    private final A2aTasksDao a2aTasks;
    private final ProcessLogDao processLog;
    private final ResponsesDao responses;
    private final AgentLogDao agentLog;
    private final StagnationDao stagnation;
    /** The one stop signal of the running agent: the persisted state is read through it in the tick's transaction. */
    private final StopSignal stops;
    private final PromptsDao prompts;
    private final LlmCallsDao llmCalls;
    /** The model's format slips: how many in a row, and whether one more may be corrected. */
    private final FormatSlips slips;

    /**
     * @param breakers told of every call's tokens in the tick's transaction (the budget and tick cap count them)
     * @param slips    counts the replies whose block could not be read, in the tick's transaction
     * @param stops    the running agent's one stop signal, over {@code store}
     */
    public TickWriter(Store store, CommandQueue queue, OperationListener outcomes, LlmBreakers breakers,
                      FormatSlips slips, StopSignal stops) {
        this.slips = Objects.requireNonNull(slips, "slips");
        this.breakers = Objects.requireNonNull(breakers, "breakers");
        this.store = Objects.requireNonNull(store, "store");
        this.clock = store.clock();
        this.queue = Objects.requireNonNull(queue, "queue");
        this.outcomes = Objects.requireNonNull(outcomes, "outcomes");
        this.notes = store.tables().notes();
        this.a2aTasks = store.tables().a2aTasks();
        this.processLog = store.tables().processLog();
        this.responses = store.tables().responses();
        this.agentLog = store.tables().agentLog();
        this.stagnation = store.tables().stagnation();
        this.stops = Objects.requireNonNull(stops, "stops");
        this.prompts = store.tables().prompts();
        this.llmCalls = store.tables().llmCalls();
    }

    ProcessLogDao processLog() { return processLog; }

    ResponsesDao responses() { return responses; }

    AgentLogDao agentLog() { return agentLog; }

    /** One look at other processes' commits for a run of reads ({@link Store#oneLook}). */
    Look oneLook() { return store.oneLook(); }

    Written writeThought(Thought t) {
        return store.inTransaction(() -> {
            // read inside the write transaction, which a halt's own transaction cannot interleave with: a reply
            // that lands after a person stopped the agent answers nothing and runs no command, however late the
            // running agent learned of the halt
            Completion c = stops.active() ? t.completion() : interrupted(t.completion());
            // cached prompt tokens count at the provider's discount (Usage.budgetTokens); a judge call counts too
            breakers.afterLlmCall(t.completion().usage().budgetTokens(), true);
            int comparisonTokens = t.comparison().usage().total();
            if (comparisonTokens > 0) breakers.afterLlmCall(t.comparison().usage().budgetTokens(), false);
            // identical is judged locally, never from an LLM's score alone
            boolean repeated = t.reviewed().repeated() && !c.interrupted();
            savePrompt(t.tickId(), t.prompt(), c.toolsOffered(), c.jsonAsked());
            saveReply(t, c, repeated);
            // a reply cut short did not answer: its notes stay unread (shown again at the next wake)
            if (!c.interrupted()) notes.markRead(t.prompt().noteIdsShown(), t.tickId());
            processLog.markSeen(t.prompt().processIdsShown(), t.tickId());
            processLog.closeOkSeenAtOrBefore(t.tickId() - AUTO_CLOSE_AFTER_TICKS);
            boolean chanted = MainCall.CHANT.equals(c.finishReason());
            slips.replyWritten(t.tickId(), t.reviewed().personMessage());
            CommandQueue.Queued queued = c.interrupted() || chanted || repeated ? new CommandQueue.Queued(List.of(), 0)
                    : queue.enqueue(t.parsed(), t.tickId(), processLog, outcomes, slips,
                            note -> a2aTasks.byNote(note).filter(task -> !task.ended()).isPresent());
            // a chant that answers a person is shown to them, cut: the model is told at the next wake, not asked
            // again now (a second chant in the task would pause the agent over a model's habit)
            if (chanted) recordChant(t.tickId(), c, !t.answersPerson());
            String outcome = c.interrupted() ? "interrupted" : "thought";
            agentLog.insert(new TickRecord(t.tickId(), t.start(), clock.instant(), outcome, t.reason(), true,
                    c.usage().promptTokens(), c.usage().completionTokens(), 0, queued.malformed().size(), repeated, null,
                    comparisonTokens));
            // each call as it went (the main one, step 5's): the tokens above, by model, cached apart
            t.calls().forEach(call -> llmCalls.insert(t.tickId(), call));
            t.reviewed().calls().forEach(call -> llmCalls.insert(t.tickId(), call));
            return new Written(outcome, repeated, queued.malformed(), queued.pending(), !c.interrupted());
        });
    }

    /**
     * What step 5's model found about a reply already written ({@link ReplyReview#judge}), in one short transaction:
     * the comparison's columns of the reply's row and of its metrics row, its tokens in the tick's row and the
     * budget, its calls.
     */
    void writeJudgement(Thought t) {
        Comparison cmp = t.comparison();
        int tokens = cmp.usage().total();
        boolean repeated = t.reviewed().repeated();
        double novelty = repeated ? 0.0 : cmp.novelty();
        String verdict = cmp.verdict().name().toLowerCase(Locale.ROOT);
        store.inTransaction(() -> {
            if (tokens > 0) breakers.afterLlmCall(cmp.usage().budgetTokens(), false);
            if (!repeated) responses.judged(t.tickId(), compared(t), cmp.novelty(), reflection(t));
            stagnation.judged(t.tickId(), novelty, cmp.method(), verdict, tokens);
            agentLog.addComparisonTokens(t.tickId(), tokens);
            t.reviewed().calls().forEach(call -> llmCalls.insert(t.tickId(), call));
        });
    }

    private static ResponsesDao.Compared compared(Thought t) {
        Comparison cmp = t.comparison();
        return new ResponsesDao.Compared(cmp.newIdeas(), cmp.refinedIdeas(), cmp.discardedIdeas(), cmp.method(),
                cmp.verdict().name().toLowerCase(Locale.ROOT), cmp.usage().total(), t.reviewed().contentHash());
    }

    /** Inside the tick's transaction: the reply's row (a short one when it repeated the last) and its metrics row. */
    private void saveReply(Thought t, Completion c, boolean repeated) {
        Comparison cmp = t.comparison();
        int comparisonTokens = cmp.usage().total();
        ResponsesDao.Compared compared = compared(t);
        if (repeated) {
            // not stored again, its commands not run again: a short row says the reflex fired and why
            ResponseRow prev = t.previous().get();
            responses.add(t.tickId(), "[anti-stagnation reflex] this reply repeated the reply of tick " + prev.tickId()
                            + " word for word: it was not stored again and its commands did not run again; say"
                            + " something new, or use idle if there is nothing to do",
                    "reflex fired: identical to tick " + prev.tickId(), 0.0, c.usage().promptTokens(),
                    c.usage().completionTokens(), c.usage().estimated(), false, true, c.model(), compared);
        } else {
            responses.add(t.tickId(), c.text(), reflection(t), c.interrupted() ? null : cmp.novelty(),
                    c.usage().promptTokens(), c.usage().completionTokens(), c.usage().estimated(), c.interrupted(),
                    false, c.model(), compared);
        }
        if (c.interrupted()) return;
        // one row per LLM-calling tick that got a reply: what the signs of stagnation are read from
        ReplyReview.Reviewed r = t.reviewed();
        stagnation.record(new StagnationDao.Metric(t.tickId(), t.previous().map(ResponseRow::id).orElse(0L),
                repeated ? 0.0 : cmp.novelty(), cmp.method(), cmp.verdict().name().toLowerCase(Locale.ROOT),
                comparisonTokens, repeated, r.repeatOfTick(), r.stimulus(), r.personMessage(), r.graphMark(),
                false, "", repeated, repeated ? "flag-to-llm" : "", r.progress()));
    }

    /**
     * A reply cut where it started repeating itself (chanting, no format slip): a {@code chanting} row the
     * SafetyMonitor counts as its own kind, and the model sees next tick (its commands did not run: a looping reply
     * decides nothing).
     */
    private void recordChant(long tickId, Completion c, boolean wake) {
        String tail = c.text().length() > 120 ? c.text().substring(c.text().length() - 120) : c.text();
        String message = "your reply of tick " + tickId + " started repeating the same text over and over; it was cut"
                + " there, and none of its commands ran. Do not repeat yourself: say something new or use idle";
        FailureFact fact = FailureFact.of("reply", "chanting", ErrorCode.EINVAL, message);
        long id = processLog.record(tickId, CHANTING, null, tail, new ProcessLogDao.Finished(
                ProcessStatus.ERROR, message, fact.code(), fact.severity().column(), fact.painLevel(),
                fact.fingerprint(), wake));
        String shown = outcomes.onOperation(tickId, new Operation(id, Operation.Source.CHANT, CHANTING,
                fact.fingerprint(), ProcessStatus.ERROR.column(), message, "", Optional.of(fact)));
        if (!shown.equals(message)) processLog.setResult(id, shown);
    }

    private static Completion interrupted(Completion c) {
        return c.interrupted() ? c : c.with(c.text(), c.finishReason(), true);
    }

    /** A small real write (see {@link Store#probeWrite()}); throws StoreException while the file cannot take one. */
    void probe() {
        store.probeWrite();
    }

    /**
     * A failed LLM call: the prompt it was sent, a {@code process_log} failure row and the tick's
     * {@code agent_log} row; text the server sent before failing (a cut-off stream, a call past its
     * deadline) is kept as an interrupted reply, which answers nothing: the notes it saw stay unread.
     */
    void writeLlmFailure(long tickId, Instant start, String reason, AssembledPrompt prompt, String endpoint, String model,
                         List<LlmCall> calls, LlmException e) {
        FailureFact fact = FailureFact.of("llm", e.kind(), e.kind().contains("timeout") || e.kind().contains("deadline")
                ? ErrorCode.ETIMEDOUT : ErrorCode.EUNKNOWN, e.getMessage());
        String partial = e instanceof RetryableLlmException r ? queue.secrets().redact(r.partialText()) : "";
        long rowId = store.inTransaction(() -> {
            savePrompt(tickId, prompt, false, false);   // which form failed is not known: the block one
            if (!partial.isEmpty()) {
                responses.add(tickId, partial, "cut short: " + e.kind(), null, 0, TokenEstimator.estimate(partial),
                        true, true, false, model);
            }
            // born closed: a failed call is the server's trouble, never shown to the LLM as a failure of its own
            // actions (six retries used to put six rows of noise into every later prompt); the row is the record
            long id = processLog.record(tickId, ProcessLogDao.LLM_CALL, null, endpoint, new ProcessLogDao.Finished(
                    ProcessStatus.CLOSE, e.getMessage(), fact.code(), fact.severity().column(),
                    fact.painLevel(), fact.fingerprint(), false));
            agentLog.insert(TickRecord.withoutReply(tickId, start, clock.instant(), "llm_error", reason, true,
                    e.getMessage()));
            calls.forEach(call -> llmCalls.insert(tickId, call));
            outcomes.onOperation(tickId, new Operation(id, e.retryable() ? Operation.Source.LLM_TRANSIENT
                    : Operation.Source.LLM_FATAL, ProcessLogDao.LLM_CALL, fact.fingerprint(), ProcessStatus.CLOSE.column(), e.getMessage(), "",
                    Optional.of(fact)));
            return id;
        });
    }

    /** An {@code agent_log} row for a tick that failed before the LLM answered ({@code outcome} error or fatal). */
    void writeTickError(long tickId, Instant start, String outcome, String reason, String message) {
        store.inTransaction(() -> agentLog.insert(TickRecord.withoutReply(tickId, start, clock.instant(), outcome, reason,
                false, message)));
    }

    /** The prompt as sent: context 0 in the form the LLM that answered got (tools, JSON or block). */
    private void savePrompt(long tickId, AssembledPrompt prompt, boolean toolsOffered, boolean jsonAsked) {
        String zero = prompt.contextZeroAsSent(toolsOffered, jsonAsked);
        prompts.save(tickId, prompt.parts().stream().map(p -> new PromptPart(p.message(),
                prompt.messages().get(p.message()).role().word(), p.context(),
                p.context() == 0 ? zero : p.text())).toList());
    }

    /**
     * The HMP reflection, built automatically: "new ideas: …" / "refined ideas: …" / "discarded ideas: …" for the
     * lists that are not empty, then how it compared and what it asked for.
     */
    private static String reflection(Thought t) {
        Comparison cmp = t.comparison();
        String commands = t.parsed().commands().isEmpty() ? "no commands"
                : "commands: " + String.join(", ", t.parsed().commands().stream().map(x -> x.type()).toList());
        String novelty = t.previous().isEmpty() ? "first reply"
                : "novelty " + Text.twoDecimals(cmp.novelty()) + " vs tick " + t.previous().get().tickId() + " ("
                + cmp.method() + ")";
        String ideas = cmp.reflection();
        return (ideas.isEmpty() ? "" : ideas + "; ") + novelty + "; " + commands + (t.parsed().errors().isEmpty() ? ""
                : "; " + t.parsed().errors().size() + " malformed");
    }
}
