package dev.hmpagent.mcp;

import dev.hmpagent.text.AppVersion;
import dev.hmpagent.text.Json;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.config.McpServerEntry;
import dev.hmpagent.process.Confinement;
import dev.hmpagent.safety.ErrorCode;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One MCP server through the SDK's synchronous client: started and listed once ({@link #connect}, off the tick
 * thread), its tools called from the call threads, its process watched, and on close its process tree killed. A
 * server that fails to start, dies or closes its stdout ends {@link McpServers.State#FAILED} with one line of why;
 * the calls in flight then end as failures (EOFFLINE), and it is started again after its back-off. A line a stdio
 * server writes that is not JSON-RPC is dropped and said once; its tool-list changes are coalesced ({@link
 * Coalescer}); a server that ends while the agent exits is not a failure ({@link #exiting}).
 */
final class McpConnection {
    /** How long the start (the process, the handshake, the tool list) may take. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
            Json.mapper();

    /** At most one {@code tools/list} a second, however many {@code notifications/tools/list_changed} arrive. */
    static final Duration REFRESH_GAP = Duration.ofSeconds(1);

    private final McpServerEntry entry;
    private final Function<String, String> variables;
    /** The allow-listed environment every child of the agent gets; a stdio server gets it and its entry's env. */
    private final Map<String, String> children;
    private final ServerNews owner;
    /** Lists the tools again after the server said they changed, at most once per {@link #REFRESH_GAP}. */
    private final Coalescer refreshes;
    /** This run's sandbox, in which a stdio server with {@code sandbox = true} runs. */
    private final Confinement confinement;
    private final InFlightCalls calls = new InFlightCalls(() -> state() == McpServers.State.STOPPED);
    /** What the server wrote on its stderr: the line that says why is quoted when its start fails. */
    private final ServerStderr stderr = new ServerStderr();
    /** Everything that changes, swapped whole: a reader never sees one change half made. */
    private final AtomicReference<ConnectionState> now = new AtomicReference<>(ConnectionState.starting());

    McpConnection(McpServerEntry entry, Function<String, String> variables, ServerNews owner, Coalescer.Scheduler later,
                  Confinement confinement, Map<String, String> children) {
        this.children = Map.copyOf(children);
        this.confinement = Objects.requireNonNull(confinement, "confinement");
        this.entry = Objects.requireNonNull(entry, "entry");
        this.variables = Objects.requireNonNull(variables, "variables");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.refreshes = new Coalescer(REFRESH_GAP, later, this::refresh);
    }

    String name() { return entry.name(); }

    McpServerEntry entry() { return entry; }

    /** The server's state, reason, tools and failures of one moment, read together. */
    ConnectionState status() { return now.get(); }

    McpServers.State state() { return now.get().state(); }

    List<McpTool> tools() { return now.get().tools(); }

    /**
     * Starts the server (again, after a failure: the old client closed and its process tree killed first), shakes
     * hands and lists its tools; a failure is one line, never thrown.
     */
    void connect() {
        if (state() == McpServers.State.STOPPED) return;
        if (state() == McpServers.State.FAILED) forgetFailedStart();
        int start = now.updateAndGet(ConnectionState::nextStart).generation();
        String failed = null;
        try {
            if (entry.stdio() && !ServerProcesses.runnable(entry.command())) {
                failed = fail("did not start: " + entry.command() + " is not an executable file"
                        + (entry.command().contains("/") ? "" : " on PATH"));
                return;
            }
            McpClientTransport raw = McpTransports.of(entry, variables, stderr, confinement,
                    children, new Ends(start));
            CancellingTransport t = new CancellingTransport(raw, refreshes::ask, this::broken);
            now.updateAndGet(s -> s.withSession(new ConnectionState.Session(null, t, null)));
            McpSyncClient c = McpClient.sync(t).requestTimeout(entry.timeout()).initializationTimeout(START_TIMEOUT)
                    .clientInfo(new McpSchema.Implementation("hmp-agent", AppVersion.current())).build();
            now.updateAndGet(s -> s.withSession(new ConnectionState.Session(c, t, null)));
            c.initialize();
            if (raw instanceof StdioTransport stdio) watch(start, stdio);
            listed(ToolLists.of(c), false);
            ready();
            tellJunk();
            ConnectionState s = now.get();
            if (s.state() == McpServers.State.STOPPED) ServerProcesses.stop(c, s.process());   // closed during the start
        } catch (RuntimeException e) {   // whatever the SDK or the server did: one line, the family unavailable
            ConnectionState s = now.get();
            failed = fail("did not start: " + McpWords.startFailure(entry, confined(), e, s.endedInStart(), s.firstJunk(),
                    stderr.meaningful()));
        } finally {
            // the list is marked changed before a call waiting for the start ends: the prompt after its result shows
            // the server as it settled, never the "starting" rendered before it
            owner.changed().accept(entry.name());
            if (failed != null) endCalls(failed);
            now.get().settled().countDown();
        }
    }

    /** Before a restart: the old client closed, its process tree killed, all the failed start said but its reason. */
    private void forgetFailedStart() {
        ConnectionState old = now.get();
        ServerProcesses.stop(old.client(), old.process());
        stderr.clear();
        now.updateAndGet(ConnectionState::restarting);
    }

    /** What a stdio transport of the start {@code start} tells: an old transport's news is dropped. */
    private final class Ends implements StdioTransport.Listener {
        private final int start;

        Ends(int start) {
            this.start = start;
        }

        @Override
        public void junk(String line) {
            if (!now.getAndUpdate(s -> s.junk(line)).firstJunk().isEmpty()) return;
            if (state() != McpServers.State.STARTING) tellJunk();   // a start says it when it is over
        }

        @Override
        public void refused(String text, boolean answered) {
            if (!answered) {   // its call is not known: every call in flight ends with it
                calls.finishAll(CommandOutcome.error(ErrorCode.EFBIG, text));
            }
            if (now.getAndUpdate(ConnectionState::refusedTold).toldRefused()) return;
            owner.notices().accept(text + "; the server goes on, the call that asked for it failed");
        }

        @Override
        public void ended(String why) {
            died(start, why);
        }
    }

    /** Says the first line that is not JSON-RPC, once per server (a start that fails says it in its own line). */
    private void tellJunk() {
        ConnectionState was = now.getAndUpdate(ConnectionState::junkTold);
        if (was.toldJunk() || was.firstJunk().isEmpty()) return;
        owner.notices().accept(McpWords.strayLine(entry.name(), was.firstJunk()));
    }

    /** A start that ended well (while the server is still starting): a server back after failures says so. */
    private void ready() {
        ConnectionState was = now.getAndUpdate(ConnectionState::ready);
        if (was.state() != McpServers.State.STARTING || was.failures() == 0) return;
        owner.notices().accept(McpWords.back(entry.name(), was.tools().size()));
    }

    private void listed(List<McpSchema.Tool> list, boolean change) {
        List<McpTool> listed = ToolLists.tools(entry, McpTransports.secretValues(entry, variables), list);
        now.updateAndGet(s -> s.withTools(listed));
        if (change) owner.listChanged().accept(entry.name());
    }

    /** Lists the tools again after the server said they changed (coalesced): a failure keeps the list it had. */
    private void refresh() {
        ConnectionState s = now.get();
        McpSyncClient c = s.client();
        if (c == null || s.state() != McpServers.State.READY) return;
        try {
            listed(ToolLists.of(c), true);
        } catch (RuntimeException e) {
            // the server failed meanwhile (its failure is said where it is seen) or did not answer: the old list stays
        }
    }

    /** Watches the process of the start {@code start}: its exit is the server's death. */
    private void watch(int start, StdioTransport stdio) {
        stdio.process().ifPresent(p -> {
            now.updateAndGet(s -> s.withSession(new ConnectionState.Session(s.client(), s.session().transport(), p)));
            p.onExit().thenRun(() -> died(start, "exited"));
        });
    }

    /**
     * The server of the start {@code start} ended ({@code why}): during its start the handshake is cut short (the start
     * says why); when the agent exits it is stopped, no failure; otherwise it failed and is started again.
     */
    private void died(int start, String why) {
        ConnectionState s = now.get();
        if (start != s.generation() || s.over()) return;
        if (s.exiting()) {
            now.updateAndGet(ConnectionState::stopped);
            return;
        }
        if (s.state() == McpServers.State.STARTING) {
            now.updateAndGet(n -> n.endedInStart(why));
            stderr.awaitEnd(s.process());   // its last words, before the close below cuts them off
            McpSyncClient c = s.client();
            if (c != null) c.close();   // the handshake waiting for an answer fails now, not at its timeout
            return;
        }
        String halt = now.getAndUpdate(n -> n.haltedBy("")).haltedBy();
        String failed = fail(halt.isEmpty() ? why : "was stopped by a halt (" + halt + ")");
        owner.changed().accept(entry.name());
        if (failed != null) endCalls(failed);   // after the change is marked, as a start's failure
    }

    /** The agent is exiting: a server that ends from now on is stopped, not failed, and never started again. */
    void exiting() {
        now.updateAndGet(ConnectionState::exitingNow);
    }

    /**
     * Marks the server failed for {@code why}; returns {@code why} when it failed just now (the calls in flight are to
     * end with it once the change is marked: {@link #endCalls}), null when it had failed or stopped already.
     */
    private String fail(String why) {
        ConnectionState was = now.getAndUpdate(s -> s.failed(why));
        if (was.over()) return null;
        if (was.failures() == 0) owner.problems().accept(McpWords.restarting(entry.name(), why));
        return why;
    }

    /** The calls in flight end with the failure {@code why}. */
    private void endCalls(String why) {
        calls.finishAll(CommandOutcome.error(ErrorCode.EOFFLINE, "mcp server " + entry.name() + " "
                + why + " during the call"));
    }

    /**
     * Calls {@code tool} on this thread (a call thread): waits for a server still starting, then gives the result to
     * {@code onDone} once, unless the agent is closing.
     */
    void call(String tool, ObjectNode args, long id, Consumer<CommandOutcome> onDone) {
        calls.began(id, onDone);
        try {
            if (!now.get().settled().await(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    || state() != McpServers.State.READY) {
                calls.finish(id, unavailable());
                return;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> arguments = JSON.convertValue(args, Map.class);
            McpSchema.CallToolRequest request = new McpSchema.CallToolRequest(tool, arguments);
            calls.sent(id, request);
            McpSchema.CallToolResult result = now.get().client().callTool(request);
            calls.finish(id, ToolResults.outcome(result));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            calls.finish(id, CommandOutcome.error(ErrorCode.EHALT, "the call of mcp." + entry.name() + "." + tool
                    + " was cancelled"));
        } catch (RuntimeException e) {   // a timeout, a broken pipe, garbage: the call failed, the loop goes on
            if (state() == McpServers.State.STOPPED) return;
            calls.finish(id, McpWords.callFailed(entry, tool, e));
        } finally {
            Optional<McpSchema.CallToolRequest> request = calls.returned(id);
            CancellingTransport t = now.get().session().transport();
            if (request.isPresent() && t != null) t.forget(request.get());
        }
    }

    /**
     * The SDK's HTTP transport reported {@code e} where no call sees it (a stream that broke after its answer began):
     * a reset or a cut connection ends the calls in flight at once, as a reset, rather than at their timeout.
     */
    private void broken(Throwable e) {
        if (entry.stdio() || !McpWords.reset(e)) return;
        calls.finishSent(r -> McpWords.resetDuring(entry, r.name()));
    }

    /** What a call of this server's tools gets while it is not ready. */
    CommandOutcome unavailable() {
        ConnectionState s = now.get();
        return CommandOutcome.error(ErrorCode.EOFFLINE, "mcp server " + entry.name() + " is unavailable"
                + (s.reason().isEmpty() ? " (" + s.state().word() + ")" : ": " + s.reason()));
    }

    /** Ends the calls in flight with {@code why} (a halt). */
    void cancelAll(String why) {
        calls.finishAll(CommandOutcome.error(ErrorCode.EHALT, why));
    }

    /**
     * A halt: the calls in flight are cancelled with the protocol's cancellation ({@code notifications/cancelled}),
     * end (EHALT), and then a stdio server's process tree is killed, so nothing it was doing goes on; it is started
     * again after its back-off, fresh. For a server over HTTP the cancellation is all there is.
     */
    void halt(String why) {
        cancelInFlight(why);
        cancelAll(why);
        ConnectionState s = now.get();
        ProcessHandle p = s.process();
        if (p == null || s.state() != McpServers.State.READY) return;
        now.updateAndGet(n -> n.haltedBy(why));
        ServerProcesses.stop(null, p);
    }

    /** Cancels the calls in flight with the protocol's cancellation ({@link InFlightCalls#cancelSent}). */
    private void cancelInFlight(String why) {
        ConnectionState s = now.get();
        CancellingTransport t = s.session().transport();
        McpSyncClient c = s.client();
        if (t == null || c == null || s.state() != McpServers.State.READY) return;
        calls.cancelSent(t, c, why, entry.stdio());
    }

    /** Closes the client and kills the server's process tree (SIGTERM, then SIGKILL after a grace). */
    void close() {
        ConnectionState was = now.getAndUpdate(ConnectionState::stopped);
        calls.clear();
        ServerProcesses.stop(was.client(), was.process());
    }

    /** Whether the server runs inside the sandbox. */
    boolean confined() {
        return entry.stdio() && entry.sandbox() && confinement.sandboxed();
    }

    /** The pid of the server's process, when it runs one the agent started. */
    Optional<Long> pid() {
        ProcessHandle p = now.get().process();
        return p == null ? Optional.empty() : Optional.of(p.pid());
    }
}
