package dev.hmpagent.cycle;

import dev.hmpagent.context.AssembledPrompt;
import dev.hmpagent.context.LiveSettings;
import dev.hmpagent.cycle.CycleStatus.Phase;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.CallCancel;
import dev.hmpagent.llm.MeteredLlm;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.stagnation.ChantDetector;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.store.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Step 3, the main LLM call of a tick, and its cancellation: a cancel (Ctrl-C, a halt) that lands while the call is
 * in flight, or just before the client started or just after it finished, makes the reply interrupted whatever the
 * client did; a reply that starts repeating itself is cut there.
 */
public final class MainCall {
    /** The finish reason of a reply cut where it started repeating itself ("chanting"). */
    static final String CHANT = "chant";
    /** Ends the kept text of a reply cut for chanting. */
    static final String CUT_MARK = "…";

    /** The reply of the call, and the call as {@code llm_calls} records it (none when no call was made). */
    record Asked(Completion completion, List<LlmCall> calls) {
        Asked {
            calls = List.copyOf(calls);
        }
    }

    private final LlmClient llm;
    /** The calls go through it: each is noted for the tick's transaction. */
    private final MeteredLlm<LlmCall> meter;
    private final LlmParams params;
    private final Clock clock;
    private final EventSink events;
    private final StatusCell status;

    // Tick thread only.
    /** The LLM layer's notices of the tick in progress, for its agent_log row. */
    private final List<String> notices = new ArrayList<>();

    // Guarded by lock: the tick thread, and whoever cancels (Ctrl-C on the REPL thread, a halt on the control thread).
    private final Object lock = new Object();
    private boolean cancelRequested;
    /** The cancel of the call being made: remembered down the client chain, so it aborts a call attached after it. */
    private CallCancel callCancel = new CallCancel();

    public MainCall(LlmClient llm, LlmParams params, Clock clock, EventSink events, StatusCell status) {
        this.llm = Objects.requireNonNull(llm, "llm");
        this.meter = new MeteredLlm<>(llm, clock, CallRows.as(LlmCall.Purpose.MAIN));
        this.params = Objects.requireNonNull(params, "params");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.events = Objects.requireNonNull(events, "events");
        this.status = Objects.requireNonNull(status, "status");
    }

    String model() { return llm.model(); }

    String endpoint() { return llm.endpoint(); }

    /** Cancels the call in flight, from any thread; returns whether there was one. */
    boolean cancel() {
        CallCancel cancelled;
        synchronized (lock) {
            if (status.get().phase() != Phase.AWAITING_LLM) return false;
            cancelRequested = true;
            cancelled = callCancel;
        }
        // the call may not have reached its HTTP client yet: the cancel waits for it there and aborts it as it attaches
        cancelled.cancel();
        return true;
    }

    /** The record of a call that failed before its tick could write it: for the failure's transaction. */
    List<LlmCall> failedCalls() {
        return meter.take();
    }

    /**
     * Makes the call with the generation parameters of this tick ({@code g}: the configured ones, or what the reflex
     * tuned them to). A call that fails throws, and its record waits for {@link #failedCalls()}. A halt heard after
     * {@code halt} and before the call started: no call at all, an empty interrupted reply.
     */
    /**
     * What the call for {@code prompt} may cost at most, for the budget: its prompt counted in full (the provider's
     * cache may have dropped it since the last call) and the longest reply it may write.
     */
    long estimate(AssembledPrompt prompt) {
        return (long) prompt.estimatedTokens() + params.maxTokens();
    }

    Asked ask(long tickId, AssembledPrompt prompt, LiveSettings.Generation g, ChantDetector chant,
              StopSignal.Since halt) {
        meter.take();   // a call whose tick failed before it could write it is not this tick's
        CallCancel cancel = enter(halt).orElse(null);
        if (cancel == null) {
            return new Asked(new Completion("", new Usage(0, 0, true), llm.model(), "", true), List.of());
        }
        // a model stuck in a loop repeats itself inside one reply: cut the call there and save the rest of its tokens
        boolean[] cut = {false};
        Instant began = clock.instant();
        events.emit(new AgentEvent.CallStarted(tickId, llm.model()));
        Completion c;
        try {
            c = meter.complete(new LlmRequest(prompt.messages(), g.temperature(), params.maxTokens(),
                    g.presencePenalty(), g.frequencyPenalty(), List.of(), prompt.offer()), delta -> {
                if (cut[0]) return;
                events.emit(new AgentEvent.ReplyDelta(tickId, delta));
                if (chant.feed(delta)) {
                    cut[0] = true;
                    cancel.cancel();   // this call's own cancel: the next call gets a new one
                }
            }, cancel);
        } catch (LlmException e) {
            return failed(tickId, prompt, began, e);
        }
        return answered(tickId, c, chant, cut[0], began);
    }

    /**
     * Enters the AWAITING_LLM phase unless a halt came first, or the persisted state is no longer ACTIVE (read once
     * more right before the request is sent: a halt another process committed that the control watcher has not yet
     * heard); empty when it did, else the cancel of the call about to be made.
     */
    private java.util.Optional<CallCancel> enter(StopSignal.Since halt) {
        boolean active = halt.signal().active();
        synchronized (lock) {
            if (!active || halt.halted()) {
                status.phase(Phase.EXECUTING);
                return java.util.Optional.empty();
            }
            cancelRequested = false;
            callCancel = new CallCancel();
            status.phase(Phase.AWAITING_LLM);
            return java.util.Optional.of(callCancel);
        }
    }

    /**
     * The client threw: rethrown, unless a cancel came first (then an interrupted reply, its prompt counted as
     * estimated and nothing out: no text arrived).
     */
    private Asked failed(long tickId, AssembledPrompt prompt, Instant began, LlmException e) {
        heardFromLlm();
        boolean cancelledFirst = leave();
        events.emit(new AgentEvent.CallEnded(tickId, llm.model(), 0, 0, 0,
                Duration.between(began, clock.instant()).toMillis(), cancelledFirst, !cancelledFirst));
        if (!cancelledFirst) throw e;
        Usage estimate = new Usage(prompt.estimatedTokens(), 0, true);
        return new Asked(new Completion("", estimate, llm.model(), "", true), meter.take().stream()
                .map(call -> call.interrupted(estimate.promptTokens(), estimate.completionTokens(), true)).toList());
    }

    private Asked answered(long tickId, Completion c, ChantDetector chant, boolean cut, Instant began) {
        heardFromLlm();
        List<LlmCall> calls = meter.take();
        boolean cancelled = leave();
        Usage used = c.usage();
        events.emit(new AgentEvent.CallEnded(tickId, c.model().isBlank() ? llm.model() : c.model(), used.promptTokens(),
                used.cachedTokens(), used.completionTokens(), Duration.between(began, clock.instant()).toMillis(),
                cancelled || c.interrupted() || cut, false));
        if (chant.found() != null && !cancelled) {
            // complete but truncated: the text up to the loop and two rounds of it, marked cut, so the person and the
            // model see what it did ("… 300M 300M …"), never the wall it was writing (issue 35)
            ChantDetector.Found f = chant.found();
            String kept = c.text().substring(0, Math.min(c.text().length(), f.loopStart() + 2 * f.period().length()))
                    .stripTrailing() + " " + CUT_MARK;
            // calls made after the loop began are not run: they are cut as the text is
            return new Asked(new Completion(kept, c.usage(), c.model(), CHANT, false, List.of(), c.toolsOffered(),
                    c.jsonAsked()),
                    calls);
        }
        if (cancelled && !c.interrupted()) {
            return new Asked(c.with(c.text(), c.finishReason(), true), calls);
        }
        return new Asked(c, calls);
    }

    /** Ends the AWAITING_LLM phase; returns whether a cancel came in before it ended (after it, none can). */
    private boolean leave() {
        synchronized (lock) {
            status.phase(Phase.EXECUTING);
            return cancelRequested;
        }
    }

    /** What the LLM layer said during the call (a failover, an outage, a recovery): shown now, kept for the tick's row. */
    private void heardFromLlm() {
        for (String line : llm.notices()) {
            events.emit(new AgentEvent.Info(line));
            notices.add(line);
        }
    }

    /** Puts the LLM layer's notices of the tick on its agent_log row, once the row exists. */
    void recordNotices(long tickId, AgentLogDao agentLog) {
        if (notices.isEmpty()) return;
        String text = String.join("\n", notices);
        notices.clear();
        try {
            agentLog.addLlmNotice(tickId, text);
        } catch (StoreException e) {
            // the terminal has had them; the row only misses the remark
        }
    }
}
