package dev.hmpagent.mcp;

import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.catalogue.CatalogueTools;
import dev.hmpagent.config.McpServerEntry;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.process.ChildEnvironment;
import dev.hmpagent.process.Confinement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * The MCP servers of [[mcp.servers]] for one running agent: started off the prompt's path (a thread each), their
 * tools the late command family {@code mcp.<server>.<tool>} of the registry, shown in context 0 by {@link
 * #catalogLines}, and stopped (their process trees killed) by {@link #close}. With no server configured it starts
 * nothing and never loads the SDK.
 */
public final class McpServers implements CatalogueTools.ToolServers, AutoCloseable {
    /** What every MCP command type starts with. */
    public static final String PREFIX = "mcp.";
    /** The command that finds the servers' tools. */
    public static final String SEARCH = "mcp_search";

    /** Where a server is. */
    public enum State {
        STARTING, READY, FAILED, STOPPED;

        /** As a person reads it: {@code starting}, {@code ready}… */
        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The longest wait before a failed server is started again. */
    static final Duration MAX_BACKOFF = Duration.ofSeconds(60);

    private final Map<String, McpConnection> servers = new LinkedHashMap<>();
    /** Starts failed servers again, after their back-off, and refreshes tool lists that changed (coalesced). */
    private final ScheduledExecutorService restarts = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mcp-restart");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean closed;
    private final ExecutorService calls;
    private final AtomicBoolean started = new AtomicBoolean();
    /** Set when a server settled or failed: context 0 shows the change at the next prompt. */
    private final AtomicBoolean stateChanged = new AtomicBoolean(true);
    /** The names of each ready server's tools, as last said: a list that changes them is told. */
    private final Map<String, Set<String>> known = new java.util.concurrent.ConcurrentHashMap<>();
    /** Which tools the LLM is offered; the person is told once of each left out. */
    private final OfferedTools offered = new OfferedTools(this::notice);
    /** The most characters of tool lines context 0 lists ({@code mcp.catalogue_chars}); the rest mcp_search finds. */
    private final int catalogueChars;
    /** How many tools the person was last told context 0 leaves out (the tick thread's). */
    private int toldLeftOut;
    /** Set when a server's tool list changed: context 0 shows it from the next task on. */
    private final AtomicBoolean toolsChanged = new AtomicBoolean();
    private volatile EventSink events = e -> { };
    /** What context 0 shows now (the tick thread's). */
    private String shown = "";
    /** The tools context 0 shows now (the tick thread's). */
    private List<McpTool> shownTools = List.of();
    /** Told on the tick thread when what context 0 shows changed (native tools mode offers them again). */
    private volatile Runnable onShown = () -> { };

    public McpServers(List<McpServerEntry> entries, Function<String, String> variables) {
        this(entries, variables, Confinement.none());
    }

    /** As below, each stdio server with the basics of the agent's own environment (PATH, HOME, LANG…). */
    public McpServers(List<McpServerEntry> entries, Function<String, String> variables, Confinement confinement) {
        this(entries, variables, confinement, McpCatalogue.DEFAULT_CHARS,
                ChildEnvironment.basics(System.getenv()).variables());
    }

    /**
     * @param confinement    this run's sandbox: a stdio server whose entry says {@code sandbox = true} runs in it
     * @param catalogueChars the most characters of tool lines context 0 lists; {@code mcp_search} finds the rest
     * @param children       the allow-listed environment every child gets; a stdio server gets it and its entry's env
     */
    public McpServers(List<McpServerEntry> entries, Function<String, String> variables, Confinement confinement,
                      int catalogueChars, Map<String, String> children) {
        this(entries, variables, confinement, catalogueChars, children, null);
    }

    /** As above; {@code later} runs the servers' coalesced tool-list refreshes (null: a thread of their own). */
    McpServers(List<McpServerEntry> entries, Function<String, String> variables, Confinement confinement,
               int catalogueChars, Map<String, String> children, Coalescer.Scheduler later) {
        Objects.requireNonNull(variables, "variables");
        this.catalogueChars = catalogueChars;
        Coalescer.Scheduler refreshes = later != null ? later : Coalescer.on(restarts);
        ServerNews owner = new ServerNews(this::problem, this::notice, this::changed,
                this::listChanged);
        for (McpServerEntry e : entries) {
            servers.put(e.name(), new McpConnection(e, variables, owner, refreshes, confinement, children));
        }
        this.calls = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "mcp-call");
            t.setDaemon(true);
            return t;
        });
    }

    /** No server: nothing starts. */
    public static McpServers none() {
        return new McpServers(List.of(), name -> null);
    }

    /** Whether any server is configured. */
    @Override
    public boolean any() {
        return !servers.isEmpty();
    }

    /** Starts every server on a thread of its own and returns at once; each problem is one line to {@code events}. */
    public void startInBackground(EventSink sink) {
        this.events = Objects.requireNonNull(sink, "sink");
        if (!started.compareAndSet(false, true)) return;
        for (McpConnection c : servers.values()) {
            Thread t = new Thread(c::connect, "mcp-start-" + c.name());
            t.setDaemon(true);
            t.start();
        }
    }

    /** Waits up to {@code timeout} for every server to be ready or failed; whether all settled. */
    public boolean awaitSettled(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (servers.values().stream().anyMatch(c -> c.state() == State.STARTING)) {
            if (System.nanoTime() > deadline) return false;
            Thread.sleep(20);
        }
        return true;
    }

    private void problem(String line) {
        events.emit(new AgentEvent.Problem(line));
    }

    private void notice(String line) {
        events.emit(new AgentEvent.Info(line, false));
    }

    /**
     * A server's tool list changed: shown to the LLM from the next task on, and said to the person when a ready
     * server's tools are other than before (not for the same list again, as servers send at start).
     */
    private void listChanged(String name) {
        toolsChanged.set(true);
        Set<String> now = names(servers.get(name));
        Set<String> before = known.replace(name, now);
        if (before == null || before.equals(now)) return;
        int count = now.size();
        notice("MCP server " + name + ": its tools changed (" + count + (count == 1 ? " tool" : " tools")
                + "); the LLM is shown them from the next task on");
    }

    /** A server started, failed or died: shown at the next prompt; a failed one is started again after its back-off. */
    private void changed(String name) {
        stateChanged.set(true);
        McpConnection c = servers.get(name);
        ConnectionState s = c.status();
        if (s.state() == State.READY) known.put(name, names(c));
        if (s.state() != State.FAILED || closed) return;
        try {
            restarts.schedule(c::connect, backoff(s.failures()).toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the agent is closing: nothing restarts
        }
    }

    private static Set<String> names(McpConnection c) {
        return c.tools().stream().map(McpTool::name).collect(java.util.stream.Collectors.toSet());
    }

    /** 1 s after the first failure in a row, doubling, at most {@link #MAX_BACKOFF}. */
    static Duration backoff(int failures) {
        long seconds = 1L << Math.min(Math.max(failures - 1, 0), 6);
        return Duration.ofSeconds(Math.min(seconds, MAX_BACKOFF.toSeconds()));
    }

    @Override
    public Optional<CommandHandler> find(String type) {
        if (!type.startsWith(PREFIX)) return Optional.empty();
        String rest = type.substring(PREFIX.length());
        int dot = rest.indexOf('.');
        if (dot <= 0 || dot == rest.length() - 1) return Optional.empty();
        McpConnection server = servers.get(rest.substring(0, dot));
        if (server == null) return Optional.empty();
        String tool = rest.substring(dot + 1);
        Optional<McpTool> listed = server.tools().stream().filter(t -> t.name().equals(tool) && t.validName())
                .findFirst();
        // a ready server that has no such tool: unknown; one still starting may have it
        if (listed.isEmpty() && server.state() == State.READY) return Optional.empty();
        return Optional.of(listed.map(t -> McpToolCommand.of(server, t, calls))
                .orElseGet(() -> McpToolCommand.unlisted(server, tool, calls)));
    }

    /** A tool list changed: shown from the next task on, so the prompt's prefix holds within one. */
    public void newTask() {
        if (toolsChanged.getAndSet(false)) stateChanged.set(true);
    }

    /**
     * Context 0's lines for the MCP tools (empty with no server): per server a header saying its state, then one
     * line per tool, as our own commands' lines, within {@code mcp.catalogue_chars} ({@link McpCatalogue#render}).
     * Rendered again only when a server settled or failed, or at a new task after its tool list changed; the person
     * is told once how many tools it leaves out. Called on the tick thread. The text is the servers' words: the
     * prompt shows it fenced as data, after {@link #catalogueIntro()}.
     */
    public String catalogLines() {
        if (servers.isEmpty()) return "";
        if (stateChanged.getAndSet(false)) {
            McpCatalogue.Listing listing = McpCatalogue.render(servers.values().stream().map(c -> {
                ConnectionState s = c.status();   // one moment of it: a server may settle meanwhile
                return new McpCatalogue.Server(c.name(), s.state(), s.reason(), s.state() == State.READY
                        ? offered.of(c.name(), s.tools()) : List.of());
            }).toList(), catalogueChars);
            shown = listing.text();
            shownTools = listing.shown();
            tellLeftOut(listing);
            onShown.run();
        }
        return shown;
    }

    /** What context 0 says before the fenced list of {@link #catalogLines()}: ours, how to read it and reach the rest. */
    public String catalogueIntro() {
        return McpCatalogue.INTRO;
    }

    /** One line to the person when the list leaves tools out, and again only when that number changes. */
    private void tellLeftOut(McpCatalogue.Listing listing) {
        if (listing.leftOut() == toldLeftOut) return;
        toldLeftOut = listing.leftOut();
        if (listing.leftOut() == 0) return;
        notice(String.format(java.util.Locale.ROOT, "MCP: %,d of %,d tools are left out of the prompt (its list of"
                + " MCP tools is capped at %,d characters, mcp.catalogue_chars); the LLM finds them with the command"
                + " mcp_search and calls them as usual", listing.leftOut(), listing.offered(), catalogueChars));
    }

    /**
     * The command {@code mcp_search}: finds the ready servers' tools offered to the LLM by words of their name or
     * description, those context 0 leaves out too. Registered when a server is configured.
     */
    @Override
    public CommandHandler searchCommand() {
        return ToolSearch.command(servers, offered);
    }

    /** The tools context 0 shows now, for the native tools of an LLM that takes tool calls (tick thread). */
    public List<McpTool> shownTools() {
        return shownTools;
    }

    /** Runs {@code listener} on the tick thread, before the prompt is assembled, whenever the shown tools change. */
    public void onShown(Runnable listener) {
        this.onShown = Objects.requireNonNull(listener, "listener");
    }

    /** What {@code agent mcp list} and {@code /mcp} show: one line per server, then its tools, a line each. */
    public String describe() {
        return ServerListing.describe(servers.values());
    }

    /** The servers' states by name, in file order. */
    public Map<String, State> states() {
        Map<String, State> out = new LinkedHashMap<>();
        servers.forEach((name, c) -> out.put(name, c.state()));
        return out;
    }

    /** The tools a server listed (none while it starts or after it failed). */
    public List<McpTool> tools(String server) {
        McpConnection c = servers.get(server);
        return c == null ? List.of() : new ArrayList<>(c.tools());
    }

    /** The pid of a stdio server's process, when it runs. */
    public Optional<Long> pid(String server) {
        McpConnection c = servers.get(server);
        return c == null ? Optional.empty() : c.pid();
    }

    /**
     * A halt: every call in flight ends as a failure (EHALT) saying {@code why}, and every stdio server's process tree
     * is killed (each is started again after its back-off).
     */
    public void cancelAll(String why) {
        servers.values().forEach(c -> c.halt(why));
    }

    /**
     * The agent is exiting: the servers' ends from now on (the exit's halt kills them) are no failures, said to
     * nobody and never restarted. Call it before the exit's {@link #cancelAll}.
     */
    public void exiting() {
        closed = true;
        servers.values().forEach(McpConnection::exiting);
    }

    /** Closes every client and kills every stdio server's process tree. */
    @Override
    public void close() {
        closed = true;
        restarts.shutdownNow();
        servers.values().forEach(McpConnection::close);
        calls.shutdownNow();
    }
}
