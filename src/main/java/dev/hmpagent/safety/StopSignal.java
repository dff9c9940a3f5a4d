package dev.hmpagent.safety;

import dev.hmpagent.store.HaltFlag;
import dev.hmpagent.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one place the running agent learns that it must stop: a halt heard by the control watcher (in memory, at
 * once, from any thread), and the persisted safety state (a halt from another process, a lockout, a pause, and a halt
 * the file could not take, in its flag beside it), read through one port inside the caller's transaction. The cycle,
 * the executor, the tick writer and the loop's gate ask it; only the control watcher (and a test standing in for it)
 * raises a halt. One is made per running agent, by the composition root, which registers on it everything a halt
 * stops.
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

    /** A signal over {@code store}'s persisted state: see {@link #persisted(Store)}. */
    public static StopSignal over(Store store) {
        return new StopSignal(persisted(store));
    }

    /**
     * The persisted state on {@code store}: STOPPED(halt) while the halt flag beside the file is raised (a halt the
     * file could not take, obeyed all the same until the control watcher records it there), else the
     * {@code safety_state} row.
     */
    public static Persisted persisted(Store store) {
        return persisted(store.path(), new SafetyControl(store)::current);
    }

    /**
     * As {@link #persisted(Store)} for the file {@code db}, its row read by {@code row} only when no flag is raised: a
     * reader on another thread opens a connection for it only then (a halt the file could not take is read without
     * the file).
     */
    public static Persisted persisted(java.nio.file.Path db, Persisted row) {
        HaltFlag flag = new HaltFlag(db);
        return () -> flag.raised() ? flagged(flag) : row.current();
    }

    /** What a raised flag stands for: a person's halt, since the flag was written, its reason the flag's. */
    private static SafetyStatus flagged(HaltFlag flag) {
        Instant since;
        try {
            since = Files.getLastModifiedTime(flag.file()).toInstant();
        } catch (IOException e) {
            since = Instant.now();   // lowered since it was seen: the halt is recorded in the file by now
        }
        String why = flag.reason().filter(r -> !r.isBlank()).map(r -> r + "; ").orElse("");
        return new SafetyStatus(SafetyState.STOPPED, Optional.of(StopReason.HALT), why + flag.file().getFileName()
                + ": the file could not take the halt", since);
    }

    /**
     * A human halt, heard now (from the control thread): every stopper runs at once on this thread, each whatever
     * the others did (one that throws does not keep the process trees alive); the first failure is thrown after all
     * ran.
     */
    public void halt() {
        halts.incrementAndGet();
        runEach(onHalt);
    }

    /**
     * Runs every one of {@code stops} in order, each whatever the others did; the first failure is thrown after all
     * ran, the later ones suppressed in it. How a halt runs its stoppers, and a stopper that stops several things.
     */
    public static void runEach(Iterable<Runnable> stops) {
        List<RuntimeException> failed = new ArrayList<>();
        for (Runnable stop : stops) {
            try {
                stop.run();
            } catch (RuntimeException e) {
                failed.add(e);
            }
        }
        if (failed.isEmpty()) return;
        RuntimeException first = failed.get(0);
        failed.subList(1, failed.size()).forEach(first::addSuppressed);
        throw first;
    }

    /** Adds what a halt stops (an LLM call, the process trees, delegated calls, MCP calls): run on every halt. */
    public void onHalt(Runnable stop) {
        onHalt.add(Objects.requireNonNull(stop, "stop"));
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
