package dev.hmpagent.a2a;

import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.SimpleCommand;
import dev.hmpagent.config.LlmSection;
import dev.hmpagent.process.AgentChildren;
import dev.hmpagent.process.ChildEnvironment;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.store.HaltFlag;
import dev.hmpagent.store.PeersDao;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The container agents of one parent (issue 37): {@link #spawn} makes a child's folder beside the parent's file
 * ({@code <parent db dir>/children/NAME/}: its {@code agent.db}, its files root {@code work/}, its {@code AGENTS.md}
 * when it was given instructions, its output in {@code child.log}), starts {@code agent run} there under the
 * supervisor with its own settings in its environment (its file, A2A on a free loopback port, the parent's LLM
 * settings unless another model is given), and records it in the parent's {@code agent_peers} (tags {@code child},
 * its URL), so it is a peer at once. {@link #haltAll} halts every child the way {@code agent halt} does on its file.
 */
public final class ChildAgents implements AutoCloseable {
    /** A child's name: a word a folder and a peer name can both be. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,31}");
    /** The file in a child's folder its instructions are written to, which its run reads as standing instructions. */
    static final String INSTRUCTIONS = "AGENTS.md";

    /** What to spawn: a name, and optionally another model, another pace, and instructions. */
    public record Request(String name, Optional<String> model, OptionalDouble hz, Optional<String> instructions) {
        public Request {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(hz, "hz");
            Objects.requireNonNull(instructions, "instructions");
        }
    }

    private final Path parentDb;
    private final LlmSection llm;
    private final Map<String, String> parentEnv;
    private final Map<String, String> inherited;
    private final AgentChildren supervisor;
    /** Where the supervisor's lines go (a child died, could not start): nowhere until the runtime says. */
    private final AtomicReference<Consumer<String>> tell;

    /**
     * @param parentDb   the parent's file; its children live in {@code children/} beside it
     * @param llm        the parent's LLM settings, which a child inherits
     * @param parentEnv  the parent's environment: a child gets the basics of it (PATH, HOME, the locale), no key
     * @param inherited  the parent's settings a child runs with too, as variables ({@code AGENT_SANDBOX_MODE} …)
     * @param supervisor starts, restarts and stops the children's processes
     */
    public ChildAgents(Path parentDb, LlmSection llm, Map<String, String> parentEnv, Map<String, String> inherited,
                       AgentChildren supervisor) {
        this(parentDb, llm, parentEnv, inherited, supervisor, new AtomicReference<>(line -> { }));
    }

    private ChildAgents(Path parentDb, LlmSection llm, Map<String, String> parentEnv, Map<String, String> inherited,
                        AgentChildren supervisor, AtomicReference<Consumer<String>> tell) {
        this.parentDb = parentDb.toAbsolutePath();
        this.llm = Objects.requireNonNull(llm, "llm");
        this.parentEnv = Map.copyOf(parentEnv);
        this.inherited = Map.copyOf(inherited);
        this.supervisor = Objects.requireNonNull(supervisor, "supervisor");
        this.tell = tell;
    }

    /** The children of a running agent: real processes, at most {@code max}, its lines told where {@link #tellWith} says. */
    public static ChildAgents real(Path parentDb, LlmSection llm, Map<String, String> parentEnv,
                                   Map<String, String> inherited, int max) {
        AtomicReference<Consumer<String>> tell = new AtomicReference<>(line -> { });
        return new ChildAgents(parentDb, llm, parentEnv, inherited,
                AgentChildren.real(max, line -> tell.get().accept(line)), tell);
    }

    /** Where a child's death or failed start is told from now on. */
    public void tellWith(Consumer<String> lines) {
        tell.set(Objects.requireNonNull(lines, "lines"));
    }

    /**
     * {@code agent_spawn}: the LLM starts a child of its own; it runs outside the tick's batch (it starts a process)
     * and its peer row is written in the command's own transaction.
     */
    public CommandHandler command() {
        return new SimpleCommand("agent_spawn", "start a child agent of your own (its own file, files and model), a peer"
                + " you can message at once", "{\"name\": \"helper\", \"instructions\": \"collect ...\"}",
                (args, ctx) -> {
            Spawned s = spawn(new Request(args.requiredText("name"), args.optionalText("model"),
                    OptionalDouble.empty(), args.optionalText("instructions")), ctx.tables().peers());
            return s.started() ? CommandOutcome.ok(s.line()) : CommandOutcome.error("agent_spawn: " + s.line());
        }).takes("name: string, model?: string, instructions?: string");
    }

    /**
     * {@code agent spawn}'s request, its JSON ({@code {"name", "model"?, "hz"?, "instructions"?}}) from the control
     * channel: the child started, and the line saying where it is or why not.
     */
    public String spawnRequested(String json, PeersDao peers) {
        com.fasterxml.jackson.databind.JsonNode o;
        try {
            o = dev.hmpagent.text.Json.mapper().readTree(json);
        } catch (java.io.IOException e) {
            return "agent spawn: the request is no JSON object: " + dev.hmpagent.text.Text.oneLine(json, 80);
        }
        Optional<String> model = Optional.ofNullable(o.get("model")).map(com.fasterxml.jackson.databind.JsonNode::asText);
        OptionalDouble hz = o.has("hz") ? OptionalDouble.of(o.get("hz").asDouble()) : OptionalDouble.empty();
        Optional<String> instructions = Optional.ofNullable(o.get("instructions"))
                .map(com.fasterxml.jackson.databind.JsonNode::asText);
        Spawned s = spawn(new Request(o.path("name").asText(""), model, hz, instructions), peers);
        return s.started() ? s.line() : "agent spawn: " + s.line();
    }

    /** Where the child {@code name} lives. */
    public static Path folder(Path parentDb, String name) {
        return parentDb.toAbsolutePath().resolveSibling("children").resolve(name);
    }

    /** The file of the child {@code name}. */
    public static Path db(Path parentDb, String name) {
        return folder(parentDb, name).resolve("agent.db");
    }

    /** The one line that says what is wrong with {@code name}, empty when it may name a child. */
    public static Optional<String> badName(String name) {
        if (NAME.matcher(name).matches()) return Optional.empty();
        return Optional.of("a child's name is 1 to 32 of a-z, 0-9, '-' and '_', starting with a letter or digit, "
                + "e.g. helper-1; \"" + dev.hmpagent.text.Text.oneLine(name, 40) + "\" is not");
    }

    /**
     * Starts the child of {@code request} and records it in {@code peers}; the line that says where it is, or why it
     * was not started (an error, then {@code Left}).
     */
    public Spawned spawn(Request request, PeersDao peers) {
        String name = request.name().strip();
        Optional<String> bad = badName(name);
        if (bad.isPresent()) return Spawned.refused(bad.get());
        Optional<PeersDao.Peer> known = peers.find(name);
        if (known.isPresent() && peers.children().stream().noneMatch(c -> c.name().equals(name))) {
            return Spawned.refused("you already know a peer called " + name + " that is no child of yours; choose "
                    + "another name");
        }
        Path folder = folder(parentDb, name);
        int port;
        try {
            Files.createDirectories(folder.resolve("work"));
            if (request.instructions().isPresent()) {
                Files.writeString(folder.resolve(INSTRUCTIONS), request.instructions().get());
            }
            port = freePort();
        } catch (IOException e) {
            return Spawned.refused("could not prepare " + folder + ": " + e.getMessage());
        }
        Optional<String> refused = supervisor.start(new AgentChildren.Spec(name,
                AgentChildren.agentCommand(List.of("run")), environment(request, folder, port), folder,
                folder.resolve("child.log")));
        if (refused.isPresent()) return Spawned.refused(refused.get());
        String url = "http://127.0.0.1:" + port + "/";
        peers.putChild(name, url);
        return new Spawned(true, "child " + name + " started: " + url + " (peer " + name + ", folder " + folder + ")");
    }

    /** What {@link #spawn} did: whether the child started, and one line saying where it is or why not. */
    public record Spawned(boolean started, String line) {
        static Spawned refused(String line) {
            return new Spawned(false, line);
        }
    }

    /** The variable that names a child's parent process: {@code agent run} stops when that process ends. */
    public static final String PARENT_PID = "HMP_AGENT_PARENT_PID";

    /** The child's whole environment: the basics of the parent's, and its own settings. */
    Map<String, String> environment(Request request, Path folder, int port) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String basic : ChildEnvironment.BASICS) {
            if (parentEnv.containsKey(basic)) env.put(basic, parentEnv.get(basic));
        }
        parentEnv.forEach((k, v) -> {
            if (k.startsWith("LC_")) env.put(k, v);
        });
        env.putAll(inherited);
        env.put("AGENT_DB", folder.resolve("agent.db").toString());
        // the child stops when this process is gone, however it went (a SIGKILL runs none of its stops)
        env.put(PARENT_PID, Long.toString(ProcessHandle.current().pid()));
        env.put("AGENT_AGENT_NAME", request.name().strip());
        env.put("AGENT_A2A_LISTEN", "127.0.0.1:" + port);
        env.put("AGENT_FILES_ROOTS", folder.resolve("work").toString());
        env.put("AGENT_LLM_PROVIDER", llm.provider().configName());
        env.put("AGENT_LLM_BASE_URL", llm.baseUrl());
        env.put("AGENT_LLM_MODEL", request.model().filter(m -> !m.isBlank()).orElse(llm.model()));
        // the key the parent resolved, handed to the child's process only (never stored, never printed)
        if (!llm.apiKey().isEmpty()) env.put("AGENT_LLM_API_KEY", llm.apiKey());
        // with instructions a child works on them by itself; without, it thinks when a peer writes to it
        env.put("AGENT_CYCLE_AUTONOMOUS", Boolean.toString(request.instructions().isPresent()));
        request.hz().ifPresent(hz -> env.put("AGENT_RUN_HZ", Double.toString(hz)));
        return env;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The children the supervisor keeps, as it sees them. */
    public List<AgentChildren.State> states() {
        return supervisor.states();
    }

    /**
     * Halts every child as {@code agent halt} does on its file: STOPPED(halt) in its file, or, when the file cannot
     * take it (or the child has not made it yet), the halt flag beside it, which the child obeys just the same.
     * Returns how many were halted.
     */
    public int haltAll(String reason, Clock clock) {
        int halted = 0;
        for (AgentChildren.State child : supervisor.states()) {
            Path db = db(parentDb, child.name());
            try {
                if (!Files.exists(db)) throw new UncheckedIOException(new IOException("not made yet"));
                try (Store store = Store.open(db, clock)) {
                    new SafetyControl(store).halt(reason, Requester.thisProcess());
                }
            } catch (RuntimeException e) {
                // busy, unreadable or not there yet: the flag beside it halts the child at its next look
                new HaltFlag(db).raise(reason, Requester.thisProcess());
            }
            halted++;
        }
        return halted;
    }

    /** Ends every child's process (SIGTERM, then a kill): the parent is going. */
    @Override
    public void close() {
        supervisor.stopAll();
    }
}
