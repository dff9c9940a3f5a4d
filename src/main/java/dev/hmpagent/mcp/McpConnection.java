package dev.hmpagent.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.config.McpServerEntry;
import dev.hmpagent.process.Confinement;
import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.text.Text;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One MCP server through the SDK's synchronous client: started and listed once ({@link #connect}, off the tick
 * thread), its tools called from the call threads, its process watched, and on close its process tree killed. A
 * server that fails to start, dies or answers garbage ends {@link McpServers.State#FAILED} with one line of why;
 * the calls in flight then end as failures.
 */
final class McpConnection {
    /** How long the start (the process, the handshake, the tool list) may take. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long KILL_GRACE_MS = 2000;
    /** How long a halt waits for a stdio server to answer the ping that follows its calls' cancellations. */
    private static final long CANCEL_PING_MS = 1000;

    private final McpServerEntry entry;
    private final Function<String, String> variables;
    /** The allow-listed environment every child of the agent gets; a stdio server gets it and its entry's env. */
    private final Map<String, String> children;
    /** Told each failure a person should see (the first of a run of them), as one line. */
    private final Consumer<String> problems;
    /** Told, as one line, that a server which had failed is ready again. */
    private final Consumer<String> notices;
    /** Told when the state changed (started, failed): shown at the next prompt. */
    private final Runnable changed;
    /** Told when the server said its tool list changed: shown from the next task on. */
    private final Runnable listChanged;
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
    private volatile String lastStderr = "";
    /** Why a halt killed the server's process ("" when none did): its death is then said as such. */
    private volatile String haltedBy = "";

    McpConnection(McpServerEntry entry, Function<String, String> variables, Consumer<String> problems,
                  Consumer<String> notices, Runnable changed, Runnable listChanged, Confinement confinement,
                  Map<String, String> children) {
        this.children = Map.copyOf(children);
        this.confinement = Objects.requireNonNull(confinement, "confinement");
        this.notices = Objects.requireNonNull(notices, "notices");
        this.listChanged = Objects.requireNonNull(listChanged, "listChanged");
        this.entry = Objects.requireNonNull(entry, "entry");
        this.variables = Objects.requireNonNull(variables, "variables");
        this.problems = Objects.requireNonNull(problems, "problems");
        this.changed = Objects.requireNonNull(changed, "changed");
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
        if (state == McpServers.State.FAILED) {
            stop(client, process);
            client = null;
            process = null;
            settled = new CountDownLatch(1);
            reason = "";
            lastStderr = "";
            state = McpServers.State.STARTING;
        }
        try {
            if (entry.stdio() && !runnable(entry.command())) {
                fail("did not start: " + entry.command() + " is not an executable file"
                        + (entry.command().contains("/") ? "" : " on PATH"));
                return;
            }
            Set<Long> before = children();
            CancellingTransport t = new CancellingTransport(McpTransports.of(entry, variables,
                    line -> lastStderr = line, confinement, children));
            transport = t;
            McpSyncClient c = McpClient.sync(t)
                    .requestTimeout(entry.timeout()).initializationTimeout(START_TIMEOUT)
                    .clientInfo(new McpSchema.Implementation("hmp-agent", version()))
                    .toolsChangeConsumer(list -> listed(list, true))
                    .build();
            client = c;
            c.initialize();
            if (entry.stdio()) watch(before);
            listed(toolsOf(c), false);
            if (state == McpServers.State.STARTING) ready();
            if (state == McpServers.State.STOPPED) stop(c, process);   // the agent closed during the start
        } catch (RuntimeException e) {   // whatever the SDK or the server did: one line, the family unavailable
            fail("did not start: " + why(e) + (lastStderr.isBlank() ? "" : " (its last words: "
                    + Text.oneLine(lastStderr, 120) + ")"));
        } finally {
            settled.countDown();
            changed.run();
        }
    }

    /** Whether {@code command} names an executable file, itself or on the PATH (the SDK starts it without a shell). */
    static boolean runnable(String command) {
        if (command.contains("/")) return java.nio.file.Files.isExecutable(java.nio.file.Path.of(command));
        String path = System.getenv("PATH");
        if (path == null) return false;
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, command))) return true;
        }
        return false;
    }

    private void ready() {
        state = McpServers.State.READY;
        int was = failures;
        failures = 0;
        if (was > 0) {
            notices.accept("MCP server " + entry.name() + " is back (" + tools.size() + (tools.size() == 1 ? " tool"
                    : " tools") + ")");
        }
    }

    /**
     * The server's tools: none when it does not offer the tools capability (the SDK refuses it tools/list), so such a
     * server is ready with no tools rather than a failure restarted again and again.
     */
    private static List<McpSchema.Tool> toolsOf(McpSyncClient c) {
        McpSchema.ServerCapabilities offered = c.getServerCapabilities();
        return offered != null && offered.tools() == null ? List.of() : listAll(c);
    }

    /** Every page of the tool list. */
    private static List<McpSchema.Tool> listAll(McpSyncClient c) {
        List<McpSchema.Tool> all = new ArrayList<>();
        String cursor = null;
        do {
            McpSchema.ListToolsResult page = cursor == null ? c.listTools() : c.listTools(cursor);
            all.addAll(page.tools());
            cursor = page.nextCursor();
        } while (cursor != null && !cursor.isEmpty());
        return all;
    }

    private void listed(List<McpSchema.Tool> list, boolean change) {
        List<McpTool> out = new ArrayList<>();
        List<String> secrets = McpTransports.secretValues(entry, variables);
        for (McpSchema.Tool t : list) {
            ObjectNode schema = t.inputSchema() == null ? JSON.createObjectNode() : JSON.valueToTree(t.inputSchema());
            out.add(McpTool.redacted(entry.name(), t.name(), t.description() == null ? "" : t.description(), schema,
                    secrets));
        }
        tools = List.copyOf(out);
        if (change) listChanged.run();
    }

    /** Finds the process the SDK started (a new child running the entry's command) and watches it. */
    private void watch(Set<Long> before) {
        String program = java.nio.file.Path.of(confined() ? "bwrap" : entry.command()).getFileName().toString();
        Optional<ProcessHandle> started = ProcessHandle.current().children()
                .filter(p -> !before.contains(p.pid()))
                .filter(p -> p.info().command().map(cmd -> cmd.endsWith("/" + program) || cmd.equals(program))
                        .orElse(false) || p.info().arguments().map(a -> a.length > 0 && a[0].endsWith(program))
                        .orElse(false))
                .findFirst();
        started.ifPresent(p -> {
            process = p;
            p.onExit().thenRun(() -> died(p));
        });
    }

    private static Set<Long> children() {
        Set<Long> pids = new java.util.HashSet<>();
        ProcessHandle.current().children().forEach(p -> pids.add(p.pid()));
        return pids;
    }

    private void died(ProcessHandle which) {
        // an old process, killed before a restart, is not this connection's death
        if (state == McpServers.State.STOPPED || which != process) return;
        String halt = haltedBy;
        haltedBy = "";
        fail(halt.isEmpty() ? "exited" : "was stopped by a halt (" + halt + ")");
        changed.run();
    }

    private void fail(String why) {
        if (state == McpServers.State.FAILED || state == McpServers.State.STOPPED) return;
        state = McpServers.State.FAILED;
        reason = why;
        if (failures++ == 0) {
            problems.accept("MCP server " + entry.name() + " " + why + "; its tools (mcp." + entry.name()
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
            finish(id, CommandOutcome.error(ToolResults.code(e), "mcp." + entry.name() + "." + tool + " failed: "
                    + why(e)));
        } finally {
            McpSchema.CallToolRequest request = requests.remove(id);
            CancellingTransport t = transport;
            if (request != null && t != null) t.forget(request);
        }
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
        stop(null, p);
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
        stop(client, process);
    }

    /** Closes {@code c} and kills the tree of {@code p} (SIGTERM, then SIGKILL after a grace). */
    private static void stop(McpSyncClient c, ProcessHandle p) {
        List<ProcessHandle> tree = new ArrayList<>();
        if (p != null) {
            p.descendants().forEach(tree::add);
            tree.add(p);
        }
        try {
            if (c != null) c.close();
        } catch (RuntimeException e) {
            // closing is best effort: the process tree is killed below whatever the client says
        }
        tree.forEach(ProcessHandle::destroy);
        long deadline = System.currentTimeMillis() + KILL_GRACE_MS;
        for (ProcessHandle h : tree) {
            try {
                h.onExit().get(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                h.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                h.destroyForcibly();
            }
        }
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

    /**
     * Why a start failed, in a person's words: the SDK's own "Client failed to initialize by explicit API call" says
     * only that the handshake did not complete, so the line says that, and the deepest cause the SDK kept.
     */
    static String why(Throwable e) {
        String top = message(e);
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        // Reactor's timeout says "Did not observe any item or terminal signal within 5000ms in 'source(...)'"
        String deep = root instanceof java.util.concurrent.TimeoutException ? "no answer in time" : message(root);
        if (!top.startsWith("Client failed to initialize")) return Text.oneLine(top, 200);
        return Text.oneLine("it did not complete MCP's initialize handshake" + (root == e ? "" : " (" + deep + ")")
                + ": is it an MCP server, writing nothing but JSON-RPC on its stdout?", 300);
    }

    private static String message(Throwable t) {
        return t.getMessage() == null || t.getMessage().isBlank() ? t.getClass().getSimpleName() : t.getMessage();
    }

    private static String version() {
        String v = McpConnection.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
