package dev.hmpagent.llm.wire;

import okhttp3.Call;

import java.time.Duration;
import java.util.Objects;

/**
 * The HTTP calls of one {@code LlmClient.complete}: its deadline ({@link System#nanoTime()} based) and whether the
 * user cancelled it. A cancel reaches the call attached then, or the next one as soon as it is attached (a retry or
 * fallback within the same completion). Thread-safe: {@link #cancel()} comes from another thread (Ctrl-C, a halt).
 */
public final class InFlightCall {
    /** Longer call deadlines are cut to this, so nanosecond arithmetic cannot overflow. */
    public static final Duration MAX_DEADLINE = Duration.ofDays(365);

    private final long deadlineAt;
    private Call call;           // guarded by this
    private boolean cancelled;   // guarded by this

    /** A completion that must be over within {@code deadline} from now. */
    public InFlightCall(Duration deadline) {
        Objects.requireNonNull(deadline, "deadline");
        Duration capped = deadline.compareTo(MAX_DEADLINE) > 0 ? MAX_DEADLINE : deadline;
        this.deadlineAt = System.nanoTime() + capped.toNanos();
    }

    /** What is left of the deadline; zero or less when it has passed. */
    public long remainingNanos() {
        return deadlineAt - System.nanoTime();
    }

    /** Makes {@code next} the call a cancel reaches; cancels it at once when the user already cancelled. */
    public synchronized void attach(Call next) {
        call = Objects.requireNonNull(next, "next");
        if (cancelled) next.cancel();
    }

    /** The user's cancel: the attached call is cancelled, and any attached later. */
    public synchronized void cancel() {
        cancelled = true;
        if (call != null) call.cancel();
    }

    /** Whether the user cancelled (a cancelled call the user did not cancel ran out of its deadline). */
    public synchronized boolean cancelled() { return cancelled; }
}
