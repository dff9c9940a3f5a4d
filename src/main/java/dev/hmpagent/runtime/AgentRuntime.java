package dev.hmpagent.runtime;

import dev.hmpagent.llm.SwitchableLlm;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.process.Confinement;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.cycle.Pacer;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.safety.StopReason;
import dev.hmpagent.cycle.TickLoop;
import dev.hmpagent.cycle.WakeOrPollPacer;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.mcp.McpServers;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.store.FileIdentity;
import dev.hmpagent.store.NoteSpool;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.StoreException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One agent running the cycle on one file, whatever its face (the REPL now, {@code agent run}
 * next): the runner lock and its guard, the tick thread's connection, the input connection with
 * its message spool, the LLM client, the cycle and its loop. Built by the composition root;
 * {@link #close()} stops the loop and gives everything back, the lock last.
 */
public final class AgentRuntime implements AutoCloseable {
    /** How often messages waiting in the spool (typed while the file was locked, or from other processes) are retried. */
    static final Duration SPOOL_RETRY = Duration.ofSeconds(1);
    /** How long storing a typed line waits for another process's write lock before it goes to the spool. */
    static final Duration INPUT_BUSY_TIMEOUT = Duration.ofMillis(250);

    private final Deque<AutoCloseable> resources;
    private final AgentConfig config;
    private final Store tickStore;
    private final SwitchableLlm llm;
    private final TickLoop loop;
    private final NoteSpool inbox;
    private final String takeover;
    private final ScheduledExecutorService spoolRetry;
    private final ControlWatcher watcher;
    private final java.time.Instant startedAt;
    private final Confinement confinement;
    /** The MCP servers of [[mcp.servers]], starting or started. */
    private final McpServers mcp;
    private final FileIdentity identity;
    private boolean started;

    AgentRuntime(Deque<AutoCloseable> resources, AgentConfig config, Store tickStore,
                         SwitchableLlm llm, TickLoop loop, NoteSpool inbox, String takeover,
                         ControlWatcher watcher, java.time.Instant startedAt, Confinement confinement,
                         FileIdentity identity, McpServers mcp) {
        this.mcp = mcp;
        this.identity = identity;
        this.startedAt = startedAt;
        this.confinement = confinement;
        this.watcher = watcher;
        this.resources = resources;
        this.config = config;
        this.tickStore = tickStore;
        this.llm = llm;
        this.loop = loop;
        this.inbox = inbox;
        this.takeover = takeover;
        this.spoolRetry = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "spool");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Takes the file (or throws {@link RunnerLock.HeldException}), opens the connections, stores
     * messages a previous run left in the spool, and wires the cycle; the loop is not started yet.
     */
    public static AgentRuntime start(AgentConfig config, Launch launch, EventSink events) {
        return start(config, launch, events, new WakeOrPollPacer(config.cycle().pollInterval()), false);
    }

    public static AgentRuntime start(AgentConfig config, Launch launch, EventSink events, Pacer pacer, boolean endOnSafetyStop) {
        return start(config, launch, events, pacer, endOnSafetyStop, Approver.NOBODY, List.of());
    }

    /**
     * As {@link #start(AgentConfig, Launch, EventSink)}, with the loop paced by {@code pacer} (fixed-rate
     * for `agent run`); with {@code endOnSafetyStop} the loop ends (End.SAFETY_STOP) as soon as the
     * safety state is not ACTIVE, instead of waiting for an unlock.
     *
     * @param approver       who answers the policy's questions (a person at the REPL, or nobody)
     * @param protectedFiles the config files this run was started with: the shell and file policies never let the
     *                       LLM touch them (the database and its side files are always protected)
     */
    public static AgentRuntime start(AgentConfig config, Launch launch, EventSink sink, Pacer pacer, boolean endOnSafetyStop,
                              Approver approver, List<Path> protectedFiles) {
        return Startup.start(config, launch, sink, pacer, endOnSafetyStop, approver, protectedFiles);
    }

    /** Starts the tick thread and the spool retry. */
    public void startThinking(EventSink events) {
        started = true;
        loop.start();
        watcher.start();
        long every = SPOOL_RETRY.toMillis();
        spoolRetry.scheduleWithFixedDelay(() -> retrySpool(events), every, every, TimeUnit.MILLISECONDS);
    }

    void storeSpooled(EventSink events) {
        try {
            int stored = inbox.flush();
            if (stored > 0) {
                events.emit(new AgentEvent.Info(stored + (stored == 1 ? " message" : " messages")
                        + " that waited in " + inbox.file().getFileName() + " stored"));
            }
        } catch (StoreException | java.io.UncheckedIOException e) {
            events.emit(new AgentEvent.Problem("messages waiting in " + inbox.file() + " could not be stored yet ("
                    + e.getMessage() + "); retrying every " + SPOOL_RETRY.toSeconds() + " s"));
        }
    }

    private void retrySpool(EventSink events) {
        // messages waiting beside a file deleted under the agent belong to the next start, not to the unlinked file
        if (identity.change().isPresent()) return;
        try {
            if (inbox.flush() > 0) loop.wake();
        } catch (StoreException | java.io.UncheckedIOException e) {
            // still locked or full: the next retry comes in a second; /status shows what waits
        } catch (RuntimeException e) {   // the spool retry's loop boundary: said, and tried again in a second
            events.emit(new AgentEvent.Problem("storing waiting messages failed: " + e.getMessage()));
        }
    }


    /** The persisted safety state, read now (any thread: on a connection of its own). */
    public SafetyStatus safety() {
        try (Store s = tickStore.connectAgain()) {
            return new SafetyControl(s).current();
        }
    }

    /**
     * Whether a person's halt (in the file, or in its halt flag) or a lock keeps the agent from thinking; the reflex's
     * rest only while a message from a person waits unread (a message ends a rest: one that is still unread when the
     * loop ended was left unanswered).
     */
    public boolean stopped() {
        // the halt flag first, as the loop's gate reads it: the file is opened only when no flag is raised
        SafetyStatus s = StopSignal.persisted(tickStore.path(), this::safety).current();
        if (!s.resting()) return !s.active();
        try (Store store = tickStore.connectAgain()) {
            return store.tables().notes().maxUnreadId(dev.hmpagent.store.NoteFilter.PERSON_OR_CLI) > 0;
        }
    }

    /** /halt and /unlock from the REPL, the same as `agent halt` / `agent unlock` from another process. */
    public SafetyControl.Change control(boolean halt, String reason) {
        try (Store s = tickStore.connectAgain()) {
            SafetyControl control = new SafetyControl(s);
            Requester me = Requester.thisProcess();
            return halt ? control.halt(reason, me) : control.unlock(reason, me);
        }
    }


    /**
     * /drop: the person's unread messages are marked read (at the last tick), so no reply answers them; returns how
     * many. On a connection of its own, waiting for another process's write lock only briefly.
     */
    public int dropUnread() {
        try (Store s = tickStore.connectAgain(INPUT_BUSY_TIMEOUT)) {
            return s.inTransaction(() -> s.tables().notes().dropUnread("user", loop.cycle().status().lastTickId()));
        }
    }

    /** A new connection to the file, for a reader on another thread (the REPL's status line and commands). */
    public Store connectAgain() {
        return tickStore.connectAgain();
    }

    /** As {@link #connectAgain()}, waiting at most {@code busyTimeout} for another connection's write lock. */
    public Store connectAgain(java.time.Duration busyTimeout) {
        return tickStore.connectAgain(busyTimeout);
    }

    public TickLoop loop() { return loop; }

    /** The MCP servers this agent started (none when agent.toml names none): {@code /mcp} lists them. */
    public McpServers mcp() { return mcp; }

    /** When this run began, before its first LLM call: its session's calls are those sent since. */
    public java.time.Instant startedAt() { return startedAt; }

    public Cycle cycle() { return loop.cycle(); }

    public NoteSpool inbox() { return inbox; }

    public SwitchableLlm llm() { return llm; }

    Path db() { return tickStore.path(); }


    /**
     * What the person should know when the loop ended for {@code end} with work left over (a
     * drain that gave up), or empty: the failures themselves were already said as they happened.
     */
    public Optional<String> farewell(TickLoop.End end) {
        int waiting = inbox.waiting();
        String queued = "; your messages stay queued in " + tickStore.path().getFileName() + " for the next start";
        return switch (end) {
            case LLM_GAVE_UP -> Optional.of("giving up: the LLM stayed unreachable for llm.give_up_s = "
                    + config.llm().giveUp().toSeconds() + " s" + queued);
            case LLM_REJECTED -> Optional.of(quotaStopped() ? "exiting: stopped (quota): no LLM the agent may use has"
                    + " quota or credit left; " + dev.hmpagent.safety.SafetyMonitor.QUOTA_RELEASE + queued
                    : "giving up: the LLM refused the request (see above); fix llm.api_key, llm.model or llm.base_url"
                    + " and start again" + queued);
            case DATABASE -> Optional.of("stopped: " + tickStore.path().getFileName()
                    + " cannot be used (see above)" + (waiting > 0 ? "; " + waiting + " typed line(s) wait in "
                    + inbox.file().getFileName() : ""));
            // the stop was said when it came, with why: the exit line does not repeat it
            case SAFETY_STOP -> Optional.of("exiting: the agent " + (safety().resting() ? "rests" : "is stopped or locked")
                    + " (said above); `agent unlock` lets it think again");
            case STOPPED, FAILED, LOST_FILE, FILE_GONE -> Optional.empty();   // the guard said why, once
        };
    }

    /** Whether the agent is STOPPED because every LLM's quota is exhausted. */
    private boolean quotaStopped() {
        SafetyStatus s = safety();
        return !s.active() && s.reason().equals(Optional.of(StopReason.QUOTA));
    }

    /** One line for the start: model, endpoint, file, a takeover if there was one, AGENTS.md when it was read. */
    public String banner() {
        return "model " + llm.model() + " at " + llm.endpoint() + ", state in " + tickStore.path() + takeover
                + (confinement.sandboxed() ? ", shell commands sandboxed (bubblewrap)" : "");
    }

    /** Stops the loop (without draining) and the spool retry, then closes everything, releasing the lock last. */
    @Override
    public void close() {
        loop.stop(false);
        // not shutdownNow: an interrupt between a flush's commit and its truncation of the spool would
        // leave stored notes in it, to be stored twice at the next start
        spoolRetry.shutdown();
        try {
            if (started) loop.awaitStopped();
            spoolRetry.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();   // closing anyway
        } finally {
            closeAll(resources);
        }
    }

    static void closeAll(Deque<AutoCloseable> resources) {
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (Exception e) {
                // closing is best effort: the next resource (the lock last) must still be released
            }
        }
    }
}
