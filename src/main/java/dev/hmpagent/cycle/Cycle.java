package dev.hmpagent.cycle;

import dev.hmpagent.context.AssembledPrompt;
import dev.hmpagent.context.ContextAssembler;
import dev.hmpagent.cycle.CycleStatus.Phase;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.Look;
import dev.hmpagent.store.ResponseRow;
import dev.hmpagent.store.StoreException;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One HMP iteration per {@link #tick()}: refresh process_log, assemble contexts 0-6, query the LLM, compare with the
 * previous reply, write it, run its commands, the reflex; {@link #think} shows these steps as calls, one screen. Runs
 * on one thread (the tick thread, or a test). Every failure inside a tick is caught here, recorded, and answered with a
 * back-off; the next call goes on. This class orders the steps; its parts, made by the composition root, own their
 * state: the {@link WakeRule} (whether to ask), the {@link MainCall} (the call and its cancellation), {@link Retries}
 * (trouble and back-off), the {@link CommandStep} (a reply's commands), {@link Telling} (what a person is told); the
 * {@link StopSignal} says when a halt came.
 */
public final class Cycle {
    /**
     * The parts of one cycle, each made once by the composition root ({@code runtime.CycleWiring}) on the tick thread's
     * connection.
     *
     * @param stops    the running agent's one stop signal (a halt heard, and the persisted state)
     * @param status   what /status and the heartbeat read from any thread
     * @param judge    step 5's model, asked after the answer was shown and the commands ran
     * @param after    what the wake rule, the back-off and the reflex learn of a written reply
     */
    public record Parts(Clock clock, StopSignal stops, StatusCell status, WakeRule wake, MainCall call,
                        Retries retries, ContextAssembler assembler, ReplyRead reading, ReplyReview review,
                        ReplyWrite writing, CommandStep commands, Telling telling, LateJudge judge, AfterWrite after,
                        Rest rest, TickWriter writer, LlmBreakers breakers) {
        public Parts {
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(stops, "stops");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(wake, "wake");
            Objects.requireNonNull(call, "call");
            Objects.requireNonNull(retries, "retries");
            Objects.requireNonNull(assembler, "assembler");
            Objects.requireNonNull(reading, "reading");
            Objects.requireNonNull(review, "review");
            Objects.requireNonNull(writing, "writing");
            Objects.requireNonNull(commands, "commands");
            Objects.requireNonNull(telling, "telling");
            Objects.requireNonNull(judge, "judge");
            Objects.requireNonNull(after, "after");
            Objects.requireNonNull(rest, "rest");
            Objects.requireNonNull(writer, "writer");
            Objects.requireNonNull(breakers, "breakers");
        }
    }

    // Set at construction: the parts (status, call, commands, telling and stops are safe from any thread).
    private final Parts p;
    private final Clock clock;
    private final StopSignal stops;
    private final StatusCell status;
    private final WakeRule wake;
    private final MainCall call;
    private final Retries retries;
    private final CommandStep commands;
    private final TickWriter writer;
    private final AgentLogDao agentLog;
    private final LlmBreakers breakers;

    // Tick thread only.
    /** The halts this thread has taken into account: after a new one, unread messages are thought about again. */
    private StopSignal.Since seen;
    /** The halts when the current tick began: one more by the time its reply is in, and the reply answers nothing. */
    private StopSignal.Since tickStart;

    public Cycle(Parts parts) {
        this.p = Objects.requireNonNull(parts, "parts");
        this.clock = parts.clock();
        this.stops = parts.stops();
        this.status = parts.status();
        this.wake = parts.wake();
        this.call = parts.call();
        this.retries = parts.retries();
        this.commands = parts.commands();
        this.writer = parts.writer();
        this.agentLog = writer.agentLog();
        this.breakers = parts.breakers();
        this.seen = stops.since();
        this.tickStart = seen;
    }

    public CycleStatus status() { return status.get(); }

    /** The clock this cycle dates what it shows and stores with. */
    Clock clock() { return clock; }

    /** Draining: what the loop does about the cycle's trouble now; tick thread. */
    DrainWait drainWait(java.time.Duration giveUp) { return retries.drainWait(giveUp); }

    /**
     * The stop signal of this agent: the control watcher raises a halt on it; a reply that was in flight or arrived
     * during the halt runs no command (it is kept as interrupted), and a reply still waiting to be written is dropped.
     */
    public StopSignal stops() { return stops; }

    /**
     * Cancels the LLM call in flight (Ctrl-C); returns whether there was one. The request is remembered for the call,
     * so a cancel that lands just before the client has started (or just after it has finished) still counts: the
     * reply is kept as interrupted and its commands do not run.
     */
    public boolean cancelInFlight() { return call.cancel(); }

    /**
     * A halt's part here (registered on the stop signal by the composition root): the LLM call in flight is cancelled
     * at once, and a comparison call in flight; the reply answers nothing now.
     */
    public void stopCalls() {
        call.cancel();
        p.review().cancel();
    }

    /**
     * Draining, on the tick thread: until when ({@link TimeSource#nanoTime()}) the LLM's own idle or pause, with a time
     * it set, holds back work still to answer (its timer, a result, a note), or a rest that ends by itself within
     * {@link Rest#WAITED} holds the task (issue 33: a wait that polls rests, and goes on); -1 when nothing is held so.
     */
    long heldUntil() {
        long held = wake.heldUntil();
        return held >= 0 ? held : p.rest().heldUntil();
    }

    /** Whether a process or a delegated call the LLM started is still running: its result is work still to answer. */
    boolean awaitingResults() { return writer.processLog().runningCount() > 0; }

    /**
     * The loop is ending (quit, Ctrl-D, SIGTERM; from any thread): a question the executor is asking a person is
     * withdrawn so the tick can end; that command and the ones after it stay pending, and the next start marks them
     * offline.
     */
    void leaving() { commands.leaving(); }

    /**
     * Whether the last person's message is left without anything shown: the LLM answered it, but with nothing that
     * could be shown (an empty reply, only commands, a block that could not be read). Asked once the loop has ended
     * (a pipe's input is answered): a message still waiting for its answer then ends unanswered, and says so.
     */
    public boolean leftUnanswered() {
        p.telling().leaving();
        return p.telling().unanswered();
    }

    /** Runs one tick if there is something to think about; otherwise returns {@link TickResult#IDLE} at once. */
    public TickResult tick() {
        return tick(true);
    }

    /**
     * Like {@link #tick()}; with {@code mayThinkUnprompted} false, autonomous mode does not count as something to
     * think about: only what arrived (a note, a result) wakes the LLM. A fixed-rate loop catching up missed frames
     * runs them so, making at most one LLM call per new observation however many frames it runs back to back.
     */
    public TickResult tick(boolean mayThinkUnprompted) {
        try {
            return tickOnce(mayThinkUnprompted);
        } finally {
            try {
                breakers.afterTick();   // stops decided in this tick's transactions reach people once they committed
            } catch (StoreException e) {
                // the file cannot be read now: the stops wait for the next tick, the tick's own outcome stands
            }
        }
    }

    private TickResult tickOnce(boolean mayThinkUnprompted) {
        Instant start = clock.instant();
        tickStart = stops.since();
        if (!tickStart.sameHalts(seen)) {
            // a halt (now released, or this tick would not run): messages it left unanswered are asked about again,
            // even those the reply it cut short had already shown
            seen = tickStart;
            wake.afterHalt();
        }
        Optional<TickResult> first = firstThings(start);
        if (first.isPresent()) return first.get();
        String reason;
        long tickId;
        try (Look look = writer.oneLook()) {   // the wake rule's reads: one look at other processes' commits
            boolean rejected = wake.waitingOutRejection();
            reason = wake.reason(mayThinkUnprompted);
            if (reason == null) return nothingToDo();
            if (rejected) retries.resetCount();   // a new message tries a refused request again
            tickId = agentLog.lastTickId() + 1;
        } catch (RuntimeException e) {   // the tick boundary, before a tick exists: the file could not be read
            return retries.unreadable(e);
        }
        try {
            // no LLM call while the file cannot take a small write: its reply would be thrown away
            if (status.get().trouble() == CycleStatus.Trouble.STORE) writer.probe();
            return think(tickId, start, reason);
        } catch (RuntimeException e) {
            // the tick boundary: one bad tick is recorded and the loop goes on
            return retries.tickFailed(tickId, start, reason, e);
        } finally {
            if (status.get().phase() != Phase.BACKING_OFF) status.phase(Phase.WAITING_FOR_EVENT);
        }
    }

    /**
     * What comes before the wake rule: step 1, the agent's own unlock attempts, a back-off, a reply that waits to be
     * written, commands that wait to run. Empty when the tick goes on to ask the wake rule.
     */
    private Optional<TickResult> firstThings(Instant start) {
        boolean selfUnlock = false;
        try {
            selfUnlock = breakers.feelUnlockRefusals(status.get().lastTickId());
            commands.recordResults();
        } catch (StoreException e) {
            if (e.damaged()) return Optional.of(retries.damaged(e));
            // kept in memory: written by a later tick; the usual retry of a file that refuses writes follows
        }
        if (selfUnlock) {
            // a process of the agent's own tried to unlock it: locked now, and this tick asks the LLM nothing
            status.phase(Phase.WAITING_FOR_EVENT);
            return Optional.of(new TickResult(false, status.get().lastTickId(), "stopped"));
        }
        if (retries.backingOff()) return Optional.of(TickResult.IDLE);
        Optional<ReplyWrite.Result> kept = p.writing().writeKept(start);
        if (kept.isPresent()) return Optional.of(replied(kept.get()));
        long unfinished = commands.unfinishedTick();
        if (unfinished < 0) return Optional.empty();
        try {
            runCommands(unfinished, call.model());
        } catch (RuntimeException e) {   // the tick boundary for the commands an earlier tick left unfinished
            return Optional.of(retries.tickFailed(unfinished, start, "unfinished commands", e));
        }
        return commands.unfinishedTick() >= 0 ? Optional.of(TickResult.IDLE) : Optional.empty();
    }

    private TickResult nothingToDo() {
        if (!wake.waitingOutRejection()) retries.settled();   // the file reads fine and nothing waits on a failed call
        p.telling().quiet();
        status.phase(wake.idling() ? Phase.IDLE : Phase.WAITING_FOR_EVENT);
        return TickResult.IDLE;
    }

    /**
     * Asked by the loop, on the tick thread, while the persisted state {@code now} keeps the agent from thinking: when
     * it is the reflex's rest and its time is up or a person's message waits, the rest ends (audited) and, at its
     * time, the LLM is woken once. Returns the state after.
     */
    public SafetyStatus endRestIfDue(SafetyStatus now) {
        return p.rest().endIfDue(now);
    }

    /**
     * HMP step 1: writes the unlocks refused to the agent's own processes as critical pain rows (see
     * {@link LlmBreakers#feelUnlockRefusals}), then the results that external commands (processes, second LLM calls)
     * handed in since the last iteration, so the wake rule sees them. Also called while the agent may not think
     * (halted, locked), so a process killed by a halt is recorded as such at once. Throws StoreException when the file
     * refuses the write; the results are kept for the next call.
     */
    public void recordResults() {
        breakers.feelUnlockRefusals(status.get().lastTickId());   // stopped already: felt and recorded, no lockout on top
        commands.recordResults();
    }

    private TickResult think(long tickId, Instant start, String reason) {
        // the results and commands of this tick so far may have tripped a breaker (a lockout, a pause): read the state
        // after the last of them and before the request is built, so no request leaves after the audit row
        if (!stops.active()) return stopped();
        Prompted asking = prompted(tickId, start);                                                   // step 2
        AssembledPrompt prompt = asking.prompt();
        // the budget is spent or this call would cross it, or the tick cap is reached: the state has moved, no request
        // reaches the server
        if (!breakers.beforeLlmCall(call.estimate(prompt))) return stopped();
        MainCall.Asked asked;
        try {
            asked = call.ask(tickId, prompt, wake.snapshot().generation(), p.review().chantDetector(), tickStart);
        } catch (LlmException e) {                                                                  // step 3
            // refused (not for quota): asking again unchanged would be refused again, so only a newer note asks
            if (!e.quotaExhausted() && !e.retryable()) wake.rejected();
            TickResult failed = retries.llmFailed(tickId, start, reason, prompt, call, call.failedCalls(), e);
            call.recordNotices(tickId, agentLog);
            return failed;
        }
        TickWriter.Thought thought = reviewed(tickId, start, reason, asking, asked);                  // step 5, locally
        return replied(p.writing().write(thought, tickStart));                                       // the tick's rows
    }

    /**
     * A reply written (or kept for a later tick, which ends this one): the person is told, its commands run (step 4),
     * step 5's model judges it if it must, once the answer is shown; then the reflex looks at it.
     */
    private TickResult replied(ReplyWrite.Result result) {
        if (!result.isWritten()) return result.kept();
        TickWriter.Thought thought = result.thought();
        TickWriter.Written written = result.written();
        p.after().learn(thought);
        p.telling().written(thought, written);
        if (written.pending() > 0) runCommands(thought.tickId(), thought.completion().model());      // step 4
        p.telling().afterCommands(thought, written);
        TickWriter.Thought judged = written.replied() ? p.judge().judged(thought, tickStart) : thought;   // step 5
        // a mesh request queued peer_message commands for this tick: they run as its own did, off the tick
        if (p.after().reflex(judged, written)) runCommands(thought.tickId(), thought.completion().model());
        TickResult done = p.after().done(thought, written);
        call.recordNotices(thought.tickId(), agentLog);
        return done;
    }

    /** Step 4: the pending commands of {@code tickId} run; what they set applies from the next wake check. */
    private void runCommands(long tickId, String model) {
        wake.settingsChanged();
        commands.run(tickId, model, tickStart);
    }

    /** The safety state keeps this tick from asking: nothing is sent, the loop's gate says why. */
    private TickResult stopped() {
        status.phase(Phase.WAITING_FOR_EVENT);
        return new TickResult(false, status.get().lastTickId(), "stopped");
    }

    /**
     * Step 2 and what the tick takes in with it, read in one look at other processes' commits (see {@link Look}):
     * whether a person's message is taken, the concept graph's mark, the prompt, and whether it holds a person's
     * message still unread ({@code answering}).
     */
    private record Prompted(boolean personMessage, String graphMark, AssembledPrompt prompt, boolean answering) { }

    private Prompted prompted(long tickId, Instant start) {
        try (Look look = writer.oneLook()) {
            boolean personMessage = wake.takeInput();
            status.phase(Phase.ASSEMBLING_CONTEXT);
            String graphMark = p.review().graphMark();
            AssembledPrompt prompt = p.assembler().assemble(tickId, start, wake.snapshot());
            return new Prompted(personMessage, graphMark, prompt, wake.personWaiting(prompt.noteWatermark()));
        }
    }

    /** Step 5 on the reply, outside any transaction: read once, redacted for keeping, compared with the previous one. */
    private TickWriter.Thought reviewed(long tickId, Instant start, String reason, Prompted asking,
                                        MainCall.Asked asked) {
        Completion answered = asked.completion();
        // a halt that came in while the reply arrived: it answers nothing and none of its commands runs
        Completion completion = !tickStart.halted() || answered.interrupted() ? answered
                : answered.with(answered.text(), answered.finishReason(), true);
        ReplyRead.Read read = p.reading().read(completion, asking.prompt());
        Optional<ResponseRow> previous = writer.responses().lastReply();
        ReplyReview.Reviewed reviewed = p.review().review(previous, read.kept(), read.parsed(),
                WakeRule.stimulus(reason), WakeRule.newNote(reason), asking.personMessage(), asking.graphMark());
        return new TickWriter.Thought(tickId, start, reason, asking.prompt(), read.kept(), read.parsed(), reviewed,
                previous, asked.calls(), asking.answering());
    }

    /**
     * Leaves a trace of an {@link Error} that ended the loop, if the file can still be written: an
     * {@code agent_log} row in state {@code fatal}. Never throws.
     */
    void recordFatal(Throwable e) {
        try {
            String what = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            writer.writeTickError(agentLog.lastTickId() + 1, clock.instant(), "fatal", "fatal", what);
        } catch (RuntimeException | Error ignored) {
            // the process is going down either way; the terminal has the one line
        }
    }
}
