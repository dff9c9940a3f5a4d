package dev.hmpagent.mcp;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
            new com.fasterxml.jackson.databind.ObjectMapper();
    /** How long a halt waits for a stdio server to answer the ping that follows its calls' cancellations. */
    private static final long CANCEL_PING_MS = 1000;

    /** At most one {@code tools/list} a second, however many {@code notifications/tools/list_changed} arrive. */
    static final Duration REFRESH_GAP = Duration.ofSeconds(1);

    /**
     * Who a connection tells what happened to it (the servers of one agent): {@code problems}, a failure a person
     * should see (the first of a run of them); {@code notices}, a line a person should read (a server back, its first
     * stray line); {@code changed}, the server's name when its state changed (shown at the next prompt, a failed one
     * restarted); {@code listChanged}, its name when its tool list changed (shown from the next task on).
     */
    record Owner(Consumer<String> problems, Consumer<String> notices, Consumer<String> changed,
                 Consumer<String> listChanged) { }

    private final McpServerEntry entry;
    private final Function<String, String> variables;
    /** The allow-listed environment every child of the agent gets; a stdio server gets it and its entry's env. */
    private final Map<String, String> children;
    private final Owner owner;
    /** Lists the tools again after the server said they changed, at most once per {@link #REFRESH_GAP}. */
    private final Coalescer refreshes;
    /** This run's sandbox, in which a stdio server with {@code sandbox = true} runs. */
    private final Confinement confinement;
    /** Counted down when the current start settled (ready or failed); a new one for each restart. */
    private volatile CountDownLatch settled = new CountDownLatch(1);
    /** Starts that failed or ended in a death since the server was last ready: the back-off grows with it. */
    private volatile int failures;
    private final Map<Long, Consumer<CommandOutcome>> inFlight = new ConcurrentHashMap<>();
    /** The request of each call in flight, which a halt cancels with the protocol's cancellation. */
    private final Map<Long, McpSchema.CallToolRequest> requests = new ConcurrentHashMap<>();
    private volatile CancellingTransport transport;
    private volatile McpServers.State state = McpServers.State.STARTING;
    private volatile String reason = "";
    private volatile List<McpTool> tools = List.of();
    private volatile McpSyncClient client;
    private volatile ProcessHandle process;
    /** What the server wrote on its stderr: the line that says why is quoted when its start fails. */
    private final ServerStderr stderr = new ServerStderr();
    /** Why a halt killed the server's process ("" when none did): its death is then said as such. */
    private volatile String haltedBy = "";
    /** Counts the starts: what an old process or transport reports after a restart is not this start's. */
    private volatile int generation;
    /** How the server ended during its start ("" while it runs): the start's failure then says it. */
    private volatile String endedInStart = "";
    /** The first line the server wrote that is not JSON-RPC ("" before one): said once, and in a failed start. */
    private volatile String firstJunk = "";
    /** Whether the person was told of a refused message, of a line that is not JSON-RPC (each once per server). */
    private volatile boolean toldRefused;
    private volatile boolean toldJunk;
    /** Set when the agent exits: the server's end is then no failure, and it is not started again. */
    private volatile boolean exiting;

    McpConnection(McpServerEntry entry, Function<String, String> variables, Owner owner, Coalescer.Scheduler later,
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

    McpServers.State state() { return state; }

    String reason() { return reason; }

    List<McpTool> tools() { return tools; }

    /** Failed starts or deaths since the server was last ready. */
    int failures() { return failures; }

    /**
     * Starts the server (again, after a failure: the old client closed and its process tree killed first), shakes
     * hands and lists its tools; a failure is one line, never thrown.
     */
    void connect() {
        if (state == McpServers.State.STOPPED) return;
        if (state == McpServers.State.FAILED) forgetFailedStart();
        int start = ++generation;
        try {
            if (entry.stdio() && !ServerProcesses.runnable(entry.command())) {
                fail("did not start: " + entry.command() + " is not an executable file"
                        + (entry.command().contains("/") ? "" : " on PATH"));
                return;
            }
            McpClientTransport raw = McpTransports.of(entry, variables, stderr, confinement,
                    children, new Ends(start));
            CancellingTransport t = new CancellingTransport(raw, refreshes::ask, this::broken);
            transport = t;
            McpSyncClient c = McpClient.sync(t).requestTimeout(entry.timeout()).initializationTimeout(START_TIMEOUT)
                    .clientInfo(new McpSchema.Implementation("hmp-agent", version())).build();
            client = c;
            c.initialize();
            if (raw instanceof StdioTransport stdio) watch(start, stdio);
            listed(ToolLists.of(c), false);
            if (state == McpServers.State.STARTING) ready();
            tellJunk();
            if (state == McpServers.State.STOPPED) ServerProcesses.stop(c, process);   // the agent closed during the start
        } catch (RuntimeException e) {   // whatever the SDK or the server did: one line, the family unavailable
            fail("did not start: " + McpWords.startFailure(entry, confined(), e, endedInStart, firstJunk,
                    stderr.meaningful()));
        } finally {
            settled.countDown();
            owner.changed().accept(entry.name());
        }
    }

    /** Before a restart: the old client closed, its process tree killed, all the failed start said but its reason. */
    private void forgetFailedStart() {
        ServerProcesses.stop(client, process);
        client = null;
        process = null;
        settled = new CountDownLatch(1);
        stderr.clear();
        endedInStart = "";
        firstJunk = "";
        state = McpServers.State.STARTING;
    }

    /** What a stdio transport of the start {@code start} tells: an old transport's news is dropped. */
    private final class Ends implements StdioTransport.Listener {
        private final int start;

        Ends(int start) {
            this.start = start;
        }

        @Override
        public void junk(String line) {
            if (!firstJunk.isEmpty()) return;
            firstJunk = line;
            if (state != McpServers.State.STARTING) tellJunk();   // a start says it when it is over
        }

        @Override
        public void refused(String text, boolean answered) {
            if (!answered) {   // its call is not known: every call in flight ends with it
                new ArrayList<>(inFlight.keySet()).forEach(id -> finish(id, CommandOutcome.error(ErrorCode.EFBIG,
                        text)));
            }
            if (toldRefused) return;
            toldRefused = true;
            owner.notices().accept(text + "; the server goes on, the call that asked for it failed");
        }

        @Override
        public void ended(String why) {
            died(start, why);
        }
    }

    /** Says the first line that is not JSON-RPC, once per server (a start that fails says it in its own line). */
    private void tellJunk() {
        if (toldJunk || firstJunk.isEmpty()) return;
        toldJunk = true;
        owner.notices().accept("MCP server " + entry.name() + " wrote a line on its stdout that is not JSON-RPC: "
                + McpWords.quoted(firstJunk) + "; it was dropped, as any more will be (its answers still arrive); a server"
                + " should write its logs to stderr");
    }

    private void ready() {
        state = McpServers.State.READY;
        reason = "";
        int was = failures;
        failures = 0;
        if (was > 0) {
            owner.notices().accept("MCP server " + entry.name() + " is back (" + tools.size() + (tools.size() == 1 ? " tool"
                    : " tools") + ")");
        }
    }

    private void listed(List<McpSchema.Tool> list, boolean change) {
        tools = ToolLists.tools(entry, McpTransports.secretValues(entry, variables), list);
        if (change) owner.listChanged().accept(entry.name());
    }

    /** Lists the tools again after the server said they changed (coalesced): a failure keeps the list it had. */
    private void refresh() {
        McpSyncClient c = client;
        if (c == null || state != McpServers.State.READY) return;
        try {
            listed(ToolLists.of(c), true);
        } catch (RuntimeException e) {
            // the server failed meanwhile (its failure is said where it is seen) or did not answer: the old list stays
        }
    }

    /** Watches the process of the start {@code start}: its exit is the server's death. */
    private void watch(int start, StdioTransport stdio) {
        stdio.process().ifPresent(p -> {
            process = p;
            p.onExit().thenRun(() -> died(start, "exited"));
        });
    }

    /**
     * The server of the start {@code start} ended ({@code why}): during its start the handshake is cut short (the start
     * says why); when the agent exits it is stopped, no failure; otherwise it failed and is started again.
     */
    private void died(int start, String why) {
        if (start != generation || state == McpServers.State.STOPPED || state == McpServers.State.FAILED) return;
        if (exiting) {
            state = McpServers.State.STOPPED;
            return;
        }
        if (state == McpServers.State.STARTING) {
            endedInStart = why;
            stderr.awaitEnd(process);   // its last words, before the close below cuts them off
            McpSyncClient c = client;
            if (c != null) c.close();   // the handshake waiting for an answer fails now, not at its timeout
            return;
        }
        String halt = haltedBy;
        haltedBy = "";
        fail(halt.isEmpty() ? why : "was stopped by a halt (" + halt + ")");
        owner.changed().accept(entry.name());
    }

    /** The agent is exiting: a server that ends from now on is stopped, not failed, and never started again. */
    void exiting() {
        exiting = true;
    }

    private void fail(String why) {
        if (state == McpServers.State.FAILED || state == McpServers.State.STOPPED) return;
        state = McpServers.State.FAILED;
        reason = why;
        if (failures++ == 0) {
            owner.problems().accept("MCP server " + entry.name() + " " + why + "; its tools (mcp." + entry.name()
                    + ".*) are unavailable; restarting it with back-off");
        }
        List<Long> ids = new ArrayList<>(inFlight.keySet());
        ids.forEach(id -> finish(id, CommandOutcome.error(ErrorCode.EOFFLINE, "mcp server " + entry.name() + " "
                + why + " during the call")));
    }

    /**
     * Calls {@code tool} on this thread (a call thread): waits for a server still starting, then gives the result to
     * {@code onDone} once, unless the agent is closing.
     */
    void call(String tool, ObjectNode args, long id, Consumer<CommandOutcome> onDone) {
        inFlight.put(id, onDone);
        try {
            if (!settled.await(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) || state != McpServers.State.READY) {
                finish(id, unavailable());
                return;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> arguments = JSON.convertValue(args, Map.class);
            McpSchema.CallToolRequest request = new McpSchema.CallToolRequest(tool, arguments);
            requests.put(id, request);
            McpSchema.CallToolResult result = client.callTool(request);
            finish(id, ToolResults.outcome(result));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finish(id, CommandOutcome.error(ErrorCode.EHALT, "the call of mcp." + entry.name() + "." + tool
                    + " was cancelled"));
        } catch (RuntimeException e) {   // a timeout, a broken pipe, garbage: the call failed, the loop goes on
            if (state == McpServers.State.STOPPED) return;
            finish(id, McpWords.callFailed(entry, tool, e));
        } finally {
            McpSchema.CallToolRequest request = requests.remove(id);
            CancellingTransport t = transport;
            if (request != null && t != null) t.forget(request);
        }
    }

    /**
     * The SDK's HTTP transport reported {@code e} where no call sees it (a stream that broke after its answer began):
     * a reset or a cut connection ends the calls in flight at once, as a reset, rather than at their timeout.
     */
    private void broken(Throwable e) {
        if (entry.stdio() || !McpWords.reset(e)) return;
        new ArrayList<>(requests.entrySet()).forEach(r -> finish(r.getKey(), McpWords.resetDuring(entry,
                r.getValue().name())));
    }

    /** What a call of this server's tools gets while it is not ready. */
    CommandOutcome unavailable() {
        return CommandOutcome.error(ErrorCode.EOFFLINE, "mcp server " + entry.name() + " is unavailable"
                + (reason.isEmpty() ? " (" + state.word() + ")" : ": " + reason));
    }

    /** Ends the calls in flight with {@code why} (a halt). */
    void cancelAll(String why) {
        new ArrayList<>(inFlight.keySet()).forEach(id -> finish(id, CommandOutcome.error(ErrorCode.EHALT, why)));
    }

    /**
     * A halt: the calls in flight are cancelled with the protocol's cancellation ({@code notifications/cancelled}),
     * end (EHALT), and then a stdio server's process tree is killed, so nothing it was doing goes on; it is started
     * again after its back-off, fresh. For a server over HTTP the cancellation is all there is.
     */
    void halt(String why) {
        cancelInFlight(why);
        cancelAll(why);
        ProcessHandle p = process;
        if (p == null || state != McpServers.State.READY) return;
        haltedBy = why;
        ServerProcesses.stop(null, p);
    }

    /**
     * Sends {@code notifications/cancelled} for each call in flight; then a stdio server is pinged (at most {@link
     * #CANCEL_PING_MS}), since its answer says it has read the cancellations before its process is killed.
     */
    private void cancelInFlight(String why) {
        CancellingTransport t = transport;
        McpSyncClient c = client;
        if (t == null || c == null || state != McpServers.State.READY) return;
        boolean sent = false;
        for (McpSchema.CallToolRequest request : new ArrayList<>(requests.values())) {
            try {
                sent |= t.cancel(request, why).isPresent();
            } catch (RuntimeException e) {
                // the server may be gone already: the call ends below (and a stdio server's tree is killed) anyway
            }
        }
        if (!sent || !entry.stdio()) return;
        try {
            java.util.concurrent.CompletableFuture.runAsync(c::ping).get(CANCEL_PING_MS, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            // a server busy or broken: it is killed without the proof that it read the cancellation
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void finish(long id, CommandOutcome outcome) {
        Consumer<CommandOutcome> onDone = inFlight.remove(id);
        if (onDone != null && state != McpServers.State.STOPPED) onDone.accept(outcome);
    }

    /** Closes the client and kills the server's process tree (SIGTERM, then SIGKILL after a grace). */
    void close() {
        state = McpServers.State.STOPPED;
        inFlight.clear();
        ServerProcesses.stop(client, process);
    }

    /** Whether the server runs inside the sandbox. */
    boolean confined() {
        return entry.stdio() && entry.sandbox() && confinement.sandboxed();
    }

    /** The pid of the server's process, when it runs one the agent started. */
    Optional<Long> pid() {
        ProcessHandle p = process;
        return p == null ? Optional.empty() : Optional.of(p.pid());
    }

    private static String version() {
        String v = McpConnection.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
