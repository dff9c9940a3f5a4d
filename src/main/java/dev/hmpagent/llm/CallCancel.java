package dev.hmpagent.llm;

import java.util.ArrayList;
import java.util.List;

/**
 * The cancel of one completion, made by the caller before the call begins and handed down the client chain. A cancel
 * is remembered: it reaches every HTTP call the completion attaches, also one attached after the cancel came (a halt
 * that lands while the call is on its way down the chain, before the provider's client has attached it). Thread-safe:
 * the call runs on one thread, the cancel comes from any (Ctrl-C, a halt).
 */
public final class CallCancel {
    private final List<Runnable> aborts = new ArrayList<>();   // guarded by this
    private boolean cancelled;                                 // guarded by this

    /** Cancels the completion: what is attached now is aborted at once, and whatever is attached later. */
    public void cancel() {
        List<Runnable> now;
        synchronized (this) {
            if (cancelled) return;
            cancelled = true;
            now = List.copyOf(aborts);
        }
        now.forEach(Runnable::run);
    }

    /** Whether the completion was cancelled. */
    public synchronized boolean cancelled() {
        return cancelled;
    }

    /**
     * Runs {@code abort} on the cancel, at once when it came already; returns what takes it off again (the call it
     * aborts has ended).
     */
    public Runnable onCancel(Runnable abort) {
        synchronized (this) {
            if (!cancelled) {
                aborts.add(abort);
                return () -> remove(abort);
            }
        }
        abort.run();
        return () -> { };
    }

    private synchronized void remove(Runnable abort) {
        aborts.remove(abort);
    }
}
