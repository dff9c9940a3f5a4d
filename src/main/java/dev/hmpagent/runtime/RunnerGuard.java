package dev.hmpagent.runtime;

import dev.hmpagent.cycle.TickLoop;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.store.FileIdentity;
import dev.hmpagent.store.RunnerLock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Keeps this process the one runner of its file: a heartbeat every few seconds on its own
 * connection, and a check on the tick thread before each iteration. When another agent has taken
 * the file over (this one was suspended past the stale limit), the loop stops and the user is told
 * once: two cycles on one file would think twice and fight over tick ids. The heartbeat also asks
 * whether the path still names the file this agent opened: a file deleted or replaced under it would
 * take everything the agent writes from then on with it, so the loop stops (exit 5) and says so once.
 */
final class RunnerGuard implements AutoCloseable {
    /** Also how fresh the figures another process reads with `agent status` are. */
    static final Duration HEARTBEAT_EVERY = Duration.ofSeconds(1);

    private final RunnerLock tickThreadLock;
    private final EventSink events;
    private final FileIdentity identity;
    private final String file;
    private final AtomicBoolean lost = new AtomicBoolean();
    /** Why the file was lost, once it was: the loop, if wired later, still ends with it. */
    private volatile TickLoop.End lostWhy;
    private final ScheduledExecutorService heartbeat;
    private volatile TickLoop loop;

    /**
     * @param heartbeatLock  the lock on a connection only the heartbeat thread uses
     * @param tickThreadLock the same lock on the tick thread's connection
     */
    RunnerGuard(RunnerLock heartbeatLock, RunnerLock tickThreadLock, EventSink events, FileIdentity identity) {
        this(heartbeatLock, tickThreadLock, events, identity, () -> new RunnerLock.Published(null, 0, 0));
    }

    /**
     * @param identity the file this agent opened, which the heartbeat checks the path still names
     * @param figures  what to publish with each heartbeat, read on the heartbeat thread (must be thread-safe)
     */
    RunnerGuard(RunnerLock heartbeatLock, RunnerLock tickThreadLock, EventSink events, FileIdentity identity,
                Supplier<RunnerLock.Published> figures) {
        Objects.requireNonNull(heartbeatLock, "heartbeatLock");
        Objects.requireNonNull(figures, "figures");
        this.tickThreadLock = Objects.requireNonNull(tickThreadLock, "tickThreadLock");
        this.events = Objects.requireNonNull(events, "events");
        this.identity = Objects.requireNonNull(identity, "identity");
        this.file = identity.path().getFileName().toString();
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "heartbeat");
            t.setDaemon(true);
            return t;
        });
        heartbeat.scheduleWithFixedDelay(() -> beat(heartbeatLock, figures), HEARTBEAT_EVERY.toMillis(),
                HEARTBEAT_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The loop to stop when the file is lost (it is built after the guard's first use is wired). */
    void guard(TickLoop loop) {
        this.loop = Objects.requireNonNull(loop, "loop");
        TickLoop.End why = lostWhy;
        if (why != null) loop.end(why);   // lost before the loop was wired
    }

    /** For {@link TickLoop}: whether this process may start another tick. */
    boolean mayTick() {
        if (lost.get()) return false;
        if (tickThreadLock.held()) return true;
        lose();
        return false;
    }

    private void beat(RunnerLock lock, Supplier<RunnerLock.Published> figures) {
        java.util.Optional<String> change = identity.change();
        if (change.isPresent()) {
            gone(change.get());
            return;
        }
        try {
            if (!lock.heartbeat(figures.get())) lose();
        } catch (RuntimeException e) {
            // a missed heartbeat (file busy) is retried in a second; the lock goes stale only after 30 s
        }
    }

    private void lose() {
        stop(TickLoop.End.LOST_FILE, "another agent has taken over " + file
                + "; this one stopped thinking and exits. Run one agent per file");
    }

    private void gone(String change) {
        stop(TickLoop.End.FILE_GONE, identity.path() + " " + change + " while this agent held it: it stopped thinking"
                + " and exits (what it wrote since went with the old file). Start it again: it opens (or creates) "
                + file + ", where messages sent since then wait");
    }

    private void stop(TickLoop.End why, String line) {
        if (!lost.compareAndSet(false, true)) return;
        lostWhy = why;
        events.emit(new AgentEvent.Problem(line));
        TickLoop l = loop;
        if (l != null) {
            l.end(why);
            // a reply still to come could only be written to the lost file: stop waiting for it
            if (why == TickLoop.End.FILE_GONE) l.cycle().cancelInFlight();
        }
        heartbeat.shutdown();
    }

    @Override
    public void close() {
        heartbeat.shutdownNow();
        try {
            heartbeat.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();   // leaving anyway; the caller sees the flag
        }
    }
}
