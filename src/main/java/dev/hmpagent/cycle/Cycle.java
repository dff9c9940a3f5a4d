package dev.hmpagent.cycle;

import dev.hmpagent.commands.CommandBlockParser;
import dev.hmpagent.commands.CommandExecutor;
import dev.hmpagent.commands.CommandRun;
import dev.hmpagent.commands.Idle;
import dev.hmpagent.commands.catalogue.IdleCommands;
import dev.hmpagent.commands.ParsedReply;
import dev.hmpagent.commands.QuotedBlocks;
import dev.hmpagent.context.AssembledPrompt;
import dev.hmpagent.context.ContextAssembler;
import dev.hmpagent.context.LiveSettings;
import dev.hmpagent.cycle.CycleStatus.Phase;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.Backoff;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.MeteredLlm;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.stagnation.ChantDetector;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ResponseRow;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.SettingsDao;
import dev.hmpagent.store.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One HMP iteration per {@link #tick()}: refresh process_log, assemble contexts 0-6, query the
 * LLM, parse and run the commands, compare with the previous reply, log the tick. Runs on one
 * thread (the tick thread, or a test). Every failure inside a tick is caught here, recorded, and
 * answered with a back-off; the next call goes on.
 */
public final class Cycle {
    /** The finish reason of a reply cut where it started repeating itself ("chanting"). */
    static final String CHANT = "chant";
    private static final NoteFilter PERSON = new NoteFilter(Integer.MIN_VALUE, java.util.List.of(),
            java.util.List.of("user"), "");
    private static final NoteFilter PERSON_OR_CLI = new NoteFilter(Integer.MIN_VALUE, java.util.List.of(),
            java.util.List.of("user", "cli"), "");
    private final Clock clock;
    private final LlmClient llm;
    /** The main calls go through it: each is noted for the tick's transaction. */
    private final MeteredLlm<LlmCall> meter;
    private final LlmParams params;
    /** The settings in force each tick: agent.toml's, with what the LLM set within its bounds. */
    private final LiveSettings settings;
    private LiveSettings.Snapshot snapshot;
    private final ContextAssembler assembler;
    private final CommandBlockParser parser;
    private final QuotedBlocks quoted;
    /** Step 5: the comparison with the previous reply, the signs of stagnation and the reflex. */
    private final ReplyReview review;
    private final Backoff backoff;
    private final TickWriter writer;
    private final CommandExecutor executor;
    private final EventSink events;
    private final NotesDao notes;
    private final ProcessLogDao processLog;
    private final ResponsesDao responses;
    private final AgentLogDao agentLog;
    /** The LLM layer's notices of the tick in progress, for its agent_log row. */
    private final List<String> llmNotices = new ArrayList<>();
    private final SettingsDao runtimeSettings;
    private final LlmBreakers breakers;
    /** The newest message from a person or the CLI that started a task. */
    private long taskNote;
    /** The newest note of any source seen: a later one is new input. */
    private long inputNote;
    private final Duration maxIdle;
    /** Set by the last wake check: the LLM's own idle holds (phase IDLE, no call). */
    private boolean idling;
    /** When the last LLM call ended: the LLM's pause counts from there. */
    private Instant lastThoughtAt;
    /**
     * The LLM's settings as last read. Only its own commands (run on this thread) write them, so they are read again
     * only after commands ran, not on every idle poll of a loop that may run 50 times a second.
     */
    private boolean settingsStale = true;
    private Optional<Idle> idleSetting = Optional.empty();
    private Duration pauseSetting = Duration.ZERO;

    private long noteWatermark;
    /** A reply the file could not take (full, locked): written by a later tick, without asking the LLM again. */
    private TickWriter.Thought unwritten;
    /** How many halts there had been when {@link #unwritten} was made: a halt since then drops it. */
    private long unwrittenAtHalt;
    /** The process is ending ({@link #leaving()}): a question to a person is withdrawn, the commands left wait. */
    private volatile boolean leaving;
    /** Halts so far ({@link #halt()}, from any thread): a reply whose call saw one is interrupted. */
    private final AtomicLong halts = new AtomicLong();
    /** Halts this tick thread has taken into account: after a new one, unread messages are thought about again. */
    private long haltsSeen;
    /** Halts when the current tick began: one more by the time its reply is in, and the reply answers nothing. */
    private long haltsAtTickStart;
    /** While the LLM refuses our requests: the highest note id seen then; only a newer note tries again. */
    private long rejectedAtNote = -1;
    /** A tick whose commands the executor could not finish (the file refused a write): run again before anything else. */
    private long unfinishedTick = -1;
    private int consecutiveFailures;
    private Instant retryAt;
    private volatile CycleStatus status;
    private final Object callLock = new Object();
    private boolean cancelRequested;

    public Cycle(Clock clock, LlmClient llm, LlmParams params, LiveSettings settings, ContextAssembler assembler,
                 CommandBlockParser parser, ReplyReview review, Backoff backoff, TickWriter writer,
                 CommandExecutor executor, EventSink events, Duration maxIdle, LlmBreakers breakers) {
        this.breakers = Objects.requireNonNull(breakers, "breakers");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.llm = Objects.requireNonNull(llm, "llm");
        this.meter = new MeteredLlm<>(llm, clock, CallRows.as(LlmCall.Purpose.MAIN));
        this.params = Objects.requireNonNull(params, "params");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.assembler = Objects.requireNonNull(assembler, "assembler");
        this.parser = Objects.requireNonNull(parser, "parser");
        this.quoted = new QuotedBlocks(parser);
        this.review = Objects.requireNonNull(review, "review");
        this.backoff = Objects.requireNonNull(backoff, "backoff");
        this.writer = Objects.requireNonNull(writer, "writer");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.events = Objects.requireNonNull(events, "events");
        this.notes = writer.notes();
        this.processLog = writer.processLog();
        this.responses = writer.responses();
        this.agentLog = writer.agentLog();
        this.runtimeSettings = writer.settings();
        this.maxIdle = Objects.requireNonNull(maxIdle, "maxIdle");
        this.status = CycleStatus.initial(agentLog.lastTickId(), agentLog.totalTokens());
    }

    public CycleStatus status() { return status; }

    /** The clock this cycle reads time from. */
    public Clock clock() { return clock; }

    /**
     * Cancels the LLM call in flight (Ctrl-C); returns whether there was one. The request is
     * remembered for the call, so a cancel that lands just before the client has started (or just
     * after it has finished) still counts: the reply is kept as interrupted and its commands do not run.
     */
    public boolean cancelInFlight() {
        synchronized (callLock) {
            if (status.phase() != Phase.AWAITING_LLM) return false;
            cancelRequested = true;
        }
        llm.cancel();
        return true;
    }

    /**
     * A human halt (from the control thread): the LLM call in flight is cancelled at once, a reply that
     * was in flight or arrived during the halt runs no command (it is kept as interrupted), and a reply
     * still waiting to be written is dropped. Its notes stay unread.
     */
    public void halt() {
        halts.incrementAndGet();
        cancelInFlight();
        review.cancel();   // a comparison call in flight: the reply it judges answers nothing now
    }

    /**
     * The loop is ending (quit, Ctrl-D, SIGTERM; from any thread): a question the executor is asking a person is
     * withdrawn so the tick can end; that command and the ones after it stay pending, and the next start marks them
     * offline.
     */
    public void leaving() {
        leaving = true;
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
        haltsAtTickStart = halts.get();
        if (haltsAtTickStart != haltsSeen) {
            // a halt (now released, or this tick would not run): messages it left unanswered are asked about again,
            // even those the reply it cut short had already shown
            haltsSeen = haltsAtTickStart;
            noteWatermark = 0;
        }
        boolean selfUnlock = false;
        try {
            selfUnlock = breakers.feelUnlockRefusals(status.lastTickId());
            recordProcessResults();
        } catch (StoreException e) {
            if (e.damaged()) return damaged(e);
            // kept in memory: written by a later tick; the usual retry of a file that refuses writes follows
        }
        if (selfUnlock) {
            // a process of the agent's own tried to unlock it: locked now, and this tick asks the LLM nothing
            setPhase(Phase.WAITING_FOR_EVENT);
            return new TickResult(false, status.lastTickId(), "stopped");
        }
        if (retryAt != null && start.isBefore(retryAt)) return TickResult.IDLE;
        if (unwritten != null && unwrittenAtHalt != halts.get()) dropKeptAfterHalt();
        if (unwritten != null) return writeKept(start);
        if (unfinishedTick >= 0) {
            try {
                execute(unfinishedTick, llm.model());
            } catch (RuntimeException e) {
                return tickFailed(unfinishedTick, start, "unfinished commands", e);
            }
            if (unfinishedTick >= 0) return TickResult.IDLE;
        }
        String reason;
        long tickId;
        try {
            reason = wakeReason(mayThinkUnprompted);
            if (reason == null) {
                if (rejectedAtNote < 0) {
                    consecutiveFailures = 0;   // the file reads fine and nothing waits on a failed call
                    if (status.trouble() != CycleStatus.Trouble.NONE) status = status.untroubled();
                }
                setPhase(idling ? Phase.IDLE : Phase.WAITING_FOR_EVENT);
                return TickResult.IDLE;
            }
            tickId = agentLog.lastTickId() + 1;
        } catch (RuntimeException e) {
            if (e instanceof StoreException se && se.damaged()) return damaged(se);
            // the file cannot even be read (locked, gone): nothing can be logged to it; say so and back off
            Duration delay = scheduleRetry(CycleStatus.Trouble.STORE, status.lastTickId(), Optional.empty(),
                    e.getMessage());
            events.emit(new AgentEvent.Problem("cannot read " + e.getMessage() + " — trying again in " + human(delay)));
            return TickResult.IDLE;
        }
        try {
            // no LLM call while the file cannot take a small write: its reply would be thrown away
            if (status.trouble() == CycleStatus.Trouble.STORE) writer.probe();
            return think(tickId, start, reason);
        } catch (RuntimeException e) {
            // the tick boundary: one bad tick is recorded and the loop goes on
            return tickFailed(tickId, start, reason, e);
        } finally {
            if (status.phase() != Phase.BACKING_OFF) setPhase(Phase.WAITING_FOR_EVENT);
        }
    }

    /**
     * HMP step 1: writes the unlocks refused to the agent's own processes as critical pain rows (see
     * {@link LlmBreakers#feelUnlockRefusals}), then the results that external commands (processes, second LLM calls)
     * handed in since the last iteration, so the wake rule sees them. Also called while the agent may not think (halted, locked), so
     * a process killed by a halt is recorded as such at once. Throws StoreException when the file refuses the
     * write; the results are kept for the next call.
     */
    public void recordResults() {
        breakers.feelUnlockRefusals(status.lastTickId());   // stopped already: felt and recorded, no lockout on top
        recordProcessResults();
    }

    private void recordProcessResults() {
        executor.recordResults(run -> emitRun(status.lastTickId(), run));
    }

    /** Why the LLM should be called now, or null when there is nothing new. */
    private String wakeReason(boolean mayThinkUnprompted) {
        readSettingsIfChanged();   // what the LLM changed applies from the next tick
        if (rejectedAtNote >= 0) {
            // the LLM refused the last request: asking again unchanged would be refused again
            if (notes.maxUnreadId(NoteFilter.ALL) <= rejectedAtNote) return null;
            rejectedAtNote = -1;
            consecutiveFailures = 0;
            return "new message";
        }
        idling = false;
        Optional<Idle> idle = idleSetting;
        if (idle.isPresent()) {
            Optional<String> ended = idle.get().ended(clock.instant(), notes, processLog);
            if (ended.isEmpty()) {
                idling = true;   // the LLM asked to rest: no call until a wake condition holds
                return null;
            }
            runtimeSettings.remove(Idle.KEY);
            idleSetting = Optional.empty();
            events.emit(new AgentEvent.Info("idle ended: " + ended.get()));
            return "idle ended: " + ended.get();
        }
        // the LLM's own pause between its turns; a person's message does not wait (asked only while a pause runs:
        // an idle poll of a loop that may run 50 times a second costs no query for it)
        if (lastThoughtAt != null && clock.instant().isBefore(lastThoughtAt.plus(pauseSetting))
                && notes.maxUnreadId(PERSON) <= noteWatermark) {
            return null;
        }
        if (notes.maxUnreadId(snapshot.settings().noteFilter()) > noteWatermark) return "new message";
        if (processLog.unseenCount() > 0) return "new results";
        if (snapshot.settings().autonomous() && mayThinkUnprompted) return "autonomous";
        return null;
    }

    private TickResult think(long tickId, Instant start, String reason) {
        long newest = notes.maxUnreadId(PERSON_OR_CLI);
        boolean personMessage = newest > taskNote;
        if (personMessage) {
            taskNote = newest;
            breakers.newTask(newest);   // a message from a person or the CLI starts a task: its budget counts from zero
        }
        long newestNote = notes.maxUnreadId(NoteFilter.ALL);
        if (newestNote > inputNote) {
            inputNote = newestNote;
            breakers.newInput();
        }
        if (!breakers.beforeLlmCall()) {
            // the budget is spent or the tick cap reached: the state has moved, no request reaches the server
            setPhase(Phase.WAITING_FOR_EVENT);
            return new TickResult(false, status.lastTickId(), "stopped");
        }
        setPhase(Phase.ASSEMBLING_CONTEXT);
        String graphMark = review.graphMark();
        AssembledPrompt prompt = assembler.assemble(tickId, start, snapshot);
        Asked asked;
        long haltsBefore = haltsAtTickStart;
        try {
            asked = ask(tickId, prompt);
        } catch (LlmException e) {
            TickResult failed = llmFailed(tickId, start, reason, prompt, meter.take(), e);
            recordLlmNotices(tickId);
            return failed;
        }
        Completion answered = asked.completion();
        // a halt that came in while the reply arrived: it answers nothing and none of its commands runs
        Completion completion = halts.get() == haltsBefore || answered.interrupted() ? answered
                : new Completion(answered.text(), answered.usage(), answered.model(), answered.finishReason(), true);
        ParsedReply parsed = quoted.screen(parser.parse(completion.text()), shownAsData(prompt));
        // the commands run with the reply as it came; every copy kept, compared or shown again has its secrets redacted
        Completion kept = new Completion(writer.secrets().redact(completion.text()), completion.usage(),
                completion.model(), completion.finishReason(), completion.interrupted());
        Optional<ResponseRow> previous = responses.lastReply();
        // step 5: the comparison (perhaps an LLM call of its own), outside any transaction
        ReplyReview.Reviewed reviewed = review.review(previous, kept, parsed, stimulus(reason), personMessage,
                graphMark);
        TickWriter.Thought thought = new TickWriter.Thought(tickId, start, reason, prompt, kept, parsed, reviewed,
                previous, asked.calls());
        TickWriter.Written written;
        try {
            written = writer.writeThought(thought);
        } catch (StoreException e) {
            if (!e.writeFailure()) throw e;
            unwritten = thought;
            unwrittenAtHalt = haltsBefore;
            return keptUnwritten(thought, e);
        }
        TickResult done = committed(thought, written);
        recordLlmNotices(thought.tickId());
        return done;
    }

    private TickResult committed(TickWriter.Thought thought, TickWriter.Written written) {
        lastThoughtAt = clock.instant();
        consecutiveFailures = 0;
        retryAt = null;
        noteWatermark = Math.max(noteWatermark, thought.prompt().noteWatermark());
        // the comparison's tokens count with the main call's, as in agent_log
        status = status.thought(thought.tickId(), thought.completion().usage().total()
                + thought.comparison().usage().total());
        emitAfterCommit(thought.tickId(), thought.completion(), thought.parsed(), written);
        if (written.pending() > 0) execute(thought.tickId(), thought.completion().model());
        if (written.replied()) reflex(thought, written);
        Usage usage = thought.completion().usage();
        events.emit(new AgentEvent.TickDone(thought.tickId(), written.state(), usage.promptTokens(),
                usage.completionTokens(), Duration.between(thought.start(), clock.instant()).toMillis()));
        return new TickResult(true, thought.tickId(), written.state());
    }

    /**
     * The anti-stagnation reflex after a reply was written and its commands ran: strategies fired change the next
     * tick's settings, a question to the person is shown like any message. A file that refuses the reflex's write
     * costs only this round: the signs are read again from the file at the next reply.
     */
    private void reflex(TickWriter.Thought thought, TickWriter.Written written) {
        double novelty = written.stagnation() ? 0.0 : thought.comparison().novelty();
        StagnationReflex.After after;
        try {
            after = review.afterReply(thought.tickId(), novelty, thought.reviewed().personMessage());
        } catch (StoreException e) {
            if (e.damaged()) throw e;
            events.emit(new AgentEvent.Problem("the anti-stagnation reflex could not write after tick " + thought.tickId()
                    + ": " + e.getMessage() + " — it looks again after the next reply"));
            return;
        }
        after.lines().forEach(line -> events.emit(new AgentEvent.Info(line, true)));
        after.question().ifPresent(q -> events.emit(new AgentEvent.MessageToUser(thought.tickId(), q.noteId(), q.text())));
        if (after.changed()) settingsStale = true;
    }

    /** Whether the tick was woken by something new from outside (a note, a result), not by the clock or itself. */
    private static boolean stimulus(String reason) {
        return !reason.equals("autonomous") && !reason.startsWith("idle ended: the time");
    }

    /** Tries again to write the reply the file could not take; the LLM is not asked again for it. */
    private TickResult writeKept(Instant now) {
        TickWriter.Thought thought = unwritten;
        TickWriter.Written written;
        try {
            written = writer.writeThought(thought);
        } catch (StoreException e) {
            if (e.damaged()) return damaged(e);
            return keptUnwritten(thought, e);
        } catch (RuntimeException e) {
            unwritten = null;   // not a file that is full or busy: this reply will never fit; let the tick fail
            return tickFailed(thought.tickId(), now, thought.reason(), e);
        }
        unwritten = null;
        events.emit(new AgentEvent.Info("the file takes writes again: the reply of tick " + thought.tickId()
                + " is stored"));
        TickResult done = committed(thought, written);
        recordLlmNotices(thought.tickId());
        return done;
    }

    private void dropKeptAfterHalt() {
        events.emit(new AgentEvent.Info("the halt dropped the reply of tick " + unwritten.tickId()
                + " that waited to be written: none of its commands runs, and its messages stay unread"));
        unwritten = null;
        retryAt = null;
        consecutiveFailures = 0;
        status = status.untroubled();
    }

    private TickResult keptUnwritten(TickWriter.Thought thought, StoreException e) {
        Duration delay = scheduleRetry(CycleStatus.Trouble.STORE, status.lastTickId(), Optional.empty(),
                e.getMessage());
        events.emit(new AgentEvent.Problem(e.getMessage() + " — the reply of tick " + thought.tickId()
                + " is kept and written when the file takes writes; trying again in " + human(delay)
                + ", without asking the LLM again"));
        return new TickResult(true, thought.tickId(), "store_error");
    }

    /** The file is damaged: nothing the loop can do will help. */
    private TickResult damaged(StoreException e) {
        events.emit(new AgentEvent.Problem(e.getMessage()));
        return new TickResult(true, status.lastTickId(), "database_damaged", true);
    }

    private static Map<String, String> shownAsData(AssembledPrompt prompt) {
        Map<String, String> shown = new LinkedHashMap<>();
        prompt.dataShown().forEach(d -> shown.putIfAbsent(d.source(), d.text()));
        return shown;
    }

    /** What the LLM layer said during the call (a failover, an outage, a recovery): shown now, kept for the tick's row. */
    private void heardFromLlm() {
        for (String line : llm.notices()) {
            events.emit(new AgentEvent.Info(line));
            llmNotices.add(line);
        }
    }

    /** Puts the LLM layer's notices of the tick on its agent_log row, once the row exists. */
    private void recordLlmNotices(long tickId) {
        if (llmNotices.isEmpty()) return;
        String text = String.join("\n", llmNotices);
        llmNotices.clear();
        try {
            agentLog.addLlmNotice(tickId, text);
        } catch (StoreException e) {
            // the terminal has had them; the row only misses the remark
        }
    }

    /** The reply of step 3's call, and the call as {@code llm_calls} records it (none when no call was made). */
    private record Asked(Completion completion, java.util.List<LlmCall> calls) { }

    /**
     * Step 3: the LLM call; a cancel requested during it makes the reply interrupted, whatever the client did. A call
     * that fails throws, and its record waits in {@link #meter} for the failure's transaction.
     */
    private Asked ask(long tickId, AssembledPrompt prompt) {
        meter.take();   // a call whose tick failed before it could write it is not this tick's
        synchronized (callLock) {
            if (halts.get() != haltsAtTickStart) {
                // halted since the tick began, before the call started: no call at all, an empty interrupted reply
                setPhase(Phase.EXECUTING);
                return new Asked(new Completion("", new Usage(0, 0, true), llm.model(), "", true), java.util.List.of());
            }
            cancelRequested = false;
            setPhase(Phase.AWAITING_LLM);
        }
        Completion c;
        // a model stuck in a loop repeats itself inside one reply: cut the call there and save the rest of its tokens
        ChantDetector chant = review.chantDetector();
        boolean[] cut = {false};
        // the generation parameters of this tick: the configured ones, or what the reflex tuned them to
        LiveSettings.Generation g = snapshot.generation();
        Instant began = clock.instant();
        events.emit(new AgentEvent.CallStarted(tickId, llm.model()));
        try {
            c = meter.complete(new LlmRequest(prompt.messages(), g.temperature(), params.maxTokens(), g.presencePenalty(),
                    g.frequencyPenalty()), delta -> {
                if (cut[0]) return;
                events.emit(new AgentEvent.ReplyDelta(tickId, delta));
                if (chant.feed(delta)) {
                    cut[0] = true;
                    llm.cancel();
                }
            });
        } catch (LlmException e) {
            heardFromLlm();
            boolean cancelledFirst = leaveCall();
            events.emit(new AgentEvent.CallEnded(tickId, llm.model(), 0, 0, 0,
                    Duration.between(began, clock.instant()).toMillis(), cancelledFirst, !cancelledFirst));
            if (!cancelledFirst) throw e;
            // cancelled, though its client threw: kept as an interrupted reply, counted as estimated like one
            Usage estimate = new Usage(prompt.estimatedTokens(), 1, true);
            return new Asked(new Completion("", estimate, llm.model(), "", true), meter.take().stream()
                    .map(call -> call.interrupted(estimate.promptTokens(), estimate.completionTokens(), true)).toList());
        }
        heardFromLlm();
        java.util.List<LlmCall> calls = meter.take();
        boolean cancelled = leaveCall();
        Usage used = c.usage();
        events.emit(new AgentEvent.CallEnded(tickId, c.model().isBlank() ? llm.model() : c.model(), used.promptTokens(),
                used.cachedTokens(), used.completionTokens(), Duration.between(began, clock.instant()).toMillis(),
                cancelled || c.interrupted() || cut[0], false));
        if (chant.found() != null && !cancelled) {
            // complete but truncated: the text up to the loop and one round of it, so the model is shown what it did
            ChantDetector.Found f = chant.found();
            String kept = c.text().substring(0, Math.min(c.text().length(), f.loopStart() + f.period().length()));
            return new Asked(new Completion(kept, c.usage(), c.model(), CHANT, false), calls);
        }
        if (cancelled && !c.interrupted()) {
            return new Asked(new Completion(c.text(), c.usage(), c.model(), c.finishReason(), true), calls);
        }
        return new Asked(c, calls);
    }

    /** Ends the AWAITING_LLM phase; returns whether a cancel came in before it ended (after it, none can). */
    private boolean leaveCall() {
        synchronized (callLock) {
            setPhase(Phase.EXECUTING);
            return cancelRequested;
        }
    }

    private void emitAfterCommit(long tickId, Completion completion, ParsedReply parsed, TickWriter.Written written) {
        if (!parsed.thought().isBlank() || completion.interrupted()) {
            events.emit(new AgentEvent.Thought(tickId, writer.secrets().redact(parsed.thought()),
                    completion.interrupted()));
        }
        if (CHANT.equals(completion.finishReason())) {
            events.emit(new AgentEvent.Info("the reply of tick " + tickId + " started repeating itself and was cut there"
                    + " (the rest of its tokens saved); none of its commands ran, and the model is told", true));
        }
        if ("length".equals(completion.finishReason())) {
            events.emit(new AgentEvent.Info("the reply of tick " + tickId + " reached its length limit (llm.max_tokens, or 4 Mi characters)"
                    + " and was cut there"));
        }
        if (Completion.EVENT_CUT.equals(completion.finishReason())) {
            events.emit(new AgentEvent.Info("the reply of tick " + tickId + " sent one stream event over 1 MB: what fit"
                    + " was kept and the reply was cut there (the server answered; this is not an outage)"));
        }
        if (completion.text().isBlank() && !completion.interrupted()) {
            events.emit(new AgentEvent.Problem("the model sent an empty reply (tick " + tickId
                    + "): nothing to show; send your message again, or try another model"));
        }
        if (written.stagnation()) {
            events.emit(new AgentEvent.Info("anti-stagnation reflex: the reply repeated the previous one word for word;"
                    + " it was not stored again and its commands did not run again (tick " + tickId + ")", true));
        }
        written.malformed().forEach(run -> emitRun(tickId, run));
    }

    /**
     * Runs the pending commands of {@code tickId}, outside its transaction; a halt (this process's or a person's
     * in the file) stops it between two commands. When the file refuses a write, the rest wait for the next tick.
     */
    private void readSettingsIfChanged() {
        if (!settingsStale) return;
        snapshot = settings.snapshot();
        idleSetting = Idle.read(runtimeSettings);
        // the LLM's own pause, or a longer one the reflex imposes while its questions go unanswered
        Duration llmPause = IdleCommands.pause(runtimeSettings, maxIdle);
        Duration slowDown = review.slowDown();
        pauseSetting = slowDown.compareTo(llmPause) > 0 ? slowDown : llmPause;
        settingsStale = false;
    }

    private void execute(long tickId, String model) {
        settingsStale = true;
        setPhase(Phase.EXECUTING);
        long haltsBefore = haltsAtTickStart;
        CommandExecutor.Executed done = executor.runPending(tickId, model, () -> halts.get() != haltsBefore,
                () -> leaving, run -> emitRun(tickId, run));
        if (done.stoppedBy().isPresent()) {
            unfinishedTick = tickId;
            Duration delay = scheduleRetry(CycleStatus.Trouble.STORE, tickId, Optional.empty(),
                    done.stoppedBy().get().getMessage());
            events.emit(new AgentEvent.Problem(done.stoppedBy().get().getMessage() + " — the commands of tick " + tickId
                    + " that have not run yet wait; trying again in " + human(delay)));
        } else {
            unfinishedTick = -1;
        }
    }

    private void emitRun(long tickId, CommandRun run) {
        run.messageToUser().ifPresent(m -> events.emit(new AgentEvent.MessageToUser(tickId, m.noteId(), m.text())));
        events.emit(new AgentEvent.CommandDone(tickId, run.cmdId(), run.type(), run.status(), run.result()));
    }

    private TickResult llmFailed(long tickId, Instant start, String reason, AssembledPrompt prompt,
                                 java.util.List<LlmCall> calls, LlmException e) {
        if (e.quotaExhausted()) {
            // no LLM left with credit (another would have taken over): stop until a start with another configuration
            retryAt = null;
            status = status.failing(CycleStatus.Trouble.LLM_REJECTED, start, tickId, Optional.empty(), e.getMessage());
            writer.writeLlmFailure(tickId, start, reason, prompt, llm.endpoint(), llm.model(), calls, e);
            // what releases the stop is said with it, by the safety monitor's line
            events.emit(new AgentEvent.Problem(e.getMessage() + " — the agent is stopped (quota); your messages stay"
                    + " queued"));
            breakers.quotaExhausted(e.getMessage());
            return new TickResult(true, tickId, "llm_error");
        }
        if (!e.retryable()) {
            // asking again unchanged would be refused again: wait for the person (a new message) or a restart
            rejectedAtNote = notes.maxUnreadId(NoteFilter.ALL);
            retryAt = null;
            status = status.failing(CycleStatus.Trouble.LLM_REJECTED, start, tickId, Optional.empty(), e.getMessage());
            writer.writeLlmFailure(tickId, start, reason, prompt, llm.endpoint(), llm.model(), calls, e);
            events.emit(new AgentEvent.Problem(e.getMessage() + " — the LLM is not asked again until you send"
                    + " a new message or restart the agent; your messages stay queued"));
            return new TickResult(true, tickId, "llm_error");
        }
        Optional<Duration> retryAfter = e instanceof RetryableLlmException r ? r.retryAfter() : Optional.empty();
        Duration delay = scheduleRetry(CycleStatus.Trouble.LLM_UNAVAILABLE, tickId, retryAfter, e.getMessage());
        writer.writeLlmFailure(tickId, start, reason, prompt, llm.endpoint(), llm.model(), calls, e);
        events.emit(new AgentEvent.Retrying(e.getMessage() + " — retrying in " + human(delay)
                + "; your messages stay queued", consecutiveFailures, retryAt));
        return new TickResult(true, tickId, "llm_error");
    }

    private TickResult tickFailed(long tickId, Instant start, String reason, RuntimeException e) {
        if (e instanceof StoreException se && se.damaged()) return damaged(se);
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        CycleStatus.Trouble trouble = e instanceof StoreException ? CycleStatus.Trouble.STORE : CycleStatus.Trouble.ERROR;
        Duration delay = scheduleRetry(trouble, tickId, Optional.empty(), message);
        try {
            writer.writeTickError(tickId, start, "error", reason, message);
        } catch (RuntimeException again) {
            message = message + " (and the tick could not be logged: " + again.getMessage() + ")";
        }
        events.emit(new AgentEvent.Problem("tick " + tickId + " failed: " + message + " — trying again in " + human(delay)));
        return new TickResult(true, tickId, "error");
    }

    /**
     * Backs off after a failure that arrived just now: the wait counts from this moment, not from the tick's start,
     * so a server that took 3 s to fail still gets the whole pause, and a Retry-After is never cut short by the time
     * the request took.
     */
    private Duration scheduleRetry(CycleStatus.Trouble trouble, long tickId, Optional<Duration> retryAfter,
                                   String error) {
        Instant now = clock.instant();
        consecutiveFailures++;
        Duration delay = backoff.delay(consecutiveFailures, retryAfter);
        retryAt = now.plus(delay);
        status = status.failing(trouble, now, tickId, Optional.of(retryAt), error);
        return delay;
    }

    /**
     * Leaves a trace of an {@link Error} that ended the loop, if the file can still be written: an
     * {@code agent_log} row in state {@code fatal}. Never throws.
     */
    public void recordFatal(Throwable e) {
        try {
            String what = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            writer.writeTickError(agentLog.lastTickId() + 1, clock.instant(), "fatal", "fatal", what);
        } catch (RuntimeException | Error ignored) {
            // the process is going down either way; the terminal has the one line
        }
    }

    private void setPhase(Phase phase) {
        status = status.withPhase(phase);
    }

    static String human(Duration d) {
        long s = Math.max(1, (d.toMillis() + 999) / 1000);
        return s < 120 ? s + " s" : (s / 60) + " min";
    }
}
