package dev.hmpagent.safety;

import dev.hmpagent.store.Store;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one place the running agent learns that it must stop: a halt heard by the control watcher (in memory, at
 * once, from any thread), and the persisted safety state (a halt from another process, a lockout, a pause), read
 * through one port inside the caller's transaction. The cycle, the executor and the tick writer ask it; only the
 * control watcher (and a test standing in for it) raises a halt.
 */
public final class StopSignal {
    /** How often the control watcher looks for a halt, in milliseconds; what {@code agent halt} promises. */
    public static final int POLL_MILLIS = 20;
    /** {@link #POLL_MILLIS} as a duration. */
    public static final Duration POLL = Duration.ofMillis(POLL_MILLIS);

    /** The persisted safety state, read on the caller's connection (inside its transaction when it has one). */
    @FunctionalInterface
    public interface Persisted {
        SafetyStatus current();
    }

    private final Persisted persisted;
    /** Halts heard so far, from any thread. */
    private final AtomicLong halts = new AtomicLong();
    /** Run on the halting thread after each halt: what cancels the work in flight (an LLM call). */
    private final List<Runnable> onHalt = new CopyOnWriteArrayList<>();

    public StopSignal(Persisted persisted) {
        this.persisted = Objects.requireNonNull(persisted, "persisted");
    }

    /** A signal over {@code store}'s {@code safety_state} row. */
    public static StopSignal over(Store store) {
        SafetyControl control = new SafetyControl(store);
        return new StopSignal(control::current);
    }

    /** A human halt, heard now (from the control thread): every canceller runs at once on this thread. */
    public void halt() {
        halts.incrementAndGet();
        onHalt.forEach(Runnable::run);
    }

    /** Adds what cancels the work in flight on a halt. */
    public void onHalt(Runnable cancel) {
        onHalt.add(Objects.requireNonNull(cancel, "cancel"));
    }

    /** A mark of now: {@link Since#halted()} says whether a halt came after it. */
    public Since since() {
        return new Since(this, halts.get());
    }

    /** The persisted safety state: one read, to be made once per transaction. */
    public SafetyStatus persisted() {
        return persisted.current();
    }

    /** Whether the persisted state lets the agent act (ACTIVE); one read, as {@link #persisted()}. */
    public boolean active() {
        return persisted().active();
    }

    /** A moment on the signal: the halts heard up to it. */
    public static final class Since {
        private final StopSignal signal;
        private final long halts;

        private Since(StopSignal signal, long halts) {
            this.signal = signal;
            this.halts = halts;
        }

        /** Whether a halt was heard after this moment. */
        public boolean halted() {
            return signal.halts.get() != halts;
        }

        /** Whether both moments saw the same halts (no halt came between them). */
        public boolean sameHalts(Since other) {
            return halts == other.halts;
        }

        /** The signal this moment is on (to read the persisted state in a transaction). */
        public StopSignal signal() {
            return signal;
        }
    }
}
