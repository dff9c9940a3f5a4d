package dev.hmpagent.commands;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one list of command types, grouped in families: execution, {@code help} and the catalog in context 0
 * all read it. The catalog gives each common command's arguments in one line from its {@link Signature}; a rarely
 * used family is one line of names; {@link #help} gives one command's arguments, their aliases and an example. The built-in families are registered by
 * {@code commands.catalogue.Catalogue}, which the composition root calls.
 */
public final class CommandRegistry {
    /** The family of commands registered without one. */
    public static final String GENERAL = "general";
    /** Command types that are never the LLM's: the human controls of the safety surface. */
    private static final Set<String> RESERVED_TYPES = Set.of("unlock", "halt");
    /** Words no LLM command type may contain: anything about budgets, policies, safety, guides or locks. */
    private static final List<String> RESERVED_WORDS = List.of("budget", "policy", "safety", "guide", "lock");
    /**
     * A word of a namespaced type that touches safety: one of {@link #RESERVED_WORDS}, its plural, or a form of lock
     * ({@code unlock}, {@code locked}, {@code lockout}…); {@code block}, {@code clock} and {@code guidelines} are other
     * words.
     */
    private static final java.util.regex.Pattern RESERVED_WORD = java.util.regex.Pattern.compile(
            "budgets?|polic(y|ies)|safety|guides?|(un)?lock(s|ed|ing|outs?|down)?");
    /** Where a type splits into words: {@code . _ -} and spaces, camelCase, and between letters and digits. */
    private static final java.util.regex.Pattern WORD_BREAK = java.util.regex.Pattern.compile(
            "[._\\-\\s]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])");

    private final Map<String, CommandHandler> handlers = new LinkedHashMap<>();
    private final Map<String, String> families = new LinkedHashMap<>();
    /** Each type's signature, read once (a default one parses the args example). */
    private final Map<String, Signature> signatures = new LinkedHashMap<>();
    /** Families the catalog shows as one line of names (rarely used: their summaries come with help). */
    private final Set<String> compact = new HashSet<>();
    /** Types whose commands touch only the database: the executor runs them in one transaction (issue 36). */
    private final Set<String> databaseOnly = new HashSet<>();
    /** Commands that come and go while the agent runs, asked after the registered ones (any thread may ask). */
    private final List<LateCommands> late = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * A family whose command types are known only while the agent runs (an MCP server's tools, listed after start):
     * {@link #find} asks it for a type no registered handler has. Its commands are not in {@link #all()}, {@link
     * #types()} or {@link #catalog()}: the family shows them in context 0 itself, between tasks, so the prompt's
     * stable prefix holds within one.
     */
    public interface LateCommands {
        /** The handler of {@code type}, if this family has one now. */
        Optional<CommandHandler> find(String type);
    }

    /** Adds a family of commands known only at run time; a registered type always wins over it. */
    public CommandRegistry attach(LateCommands commands) {
        late.add(java.util.Objects.requireNonNull(commands, "commands"));
        return this;
    }

    /**
     * Whether a command type touches safety, so an LLM command of that type is refused (EPERM, critical): {@code
     * unlock}, {@code halt}; a type of our own (no dot) containing budget, policy, safety, guide or lock anywhere (in
     * any case: {@code setbudget} too); a namespaced type, a tool another party named ({@code mcp.<server>.<tool>}),
     * when one of its words is such a word ({@link #reservedWord}), so {@code mcp.x.set_budget} and {@code
     * mcp.x.unlock} are refused but {@code mcp.github.create_block} and {@code mcp.x.clock_time} are not.
     */
    public static boolean isReserved(String type) {
        String t = type.strip().toLowerCase(Locale.ROOT);
        if (RESERVED_TYPES.contains(t)) return true;
        if (!t.contains(".")) return RESERVED_WORDS.stream().anyMatch(t::contains);
        return reservedWord(type).isPresent();
    }

    /**
     * The first word of {@code type} that touches safety, split at {@code . _ -}, spaces, camelCase and digits
     * ({@code getGuidelines} is get, guidelines; {@code lockout_clear} is lockout, clear).
     */
    public static Optional<String> reservedWord(String type) {
        return java.util.Arrays.stream(WORD_BREAK.split(type.strip())).map(w -> w.toLowerCase(Locale.ROOT))
                .filter(w -> RESERVED_WORD.matcher(w).matches()).findFirst();
    }

    public CommandRegistry register(CommandHandler handler) {
        return register(GENERAL, handler);
    }

    /** Our own command types are held to the stricter rule: none may contain a reserved word anywhere, dot or not. */
    public CommandRegistry register(String family, CommandHandler handler) {
        String t = handler.type().strip().toLowerCase(Locale.ROOT);
        if (isReserved(t) || RESERVED_WORDS.stream().anyMatch(t::contains)) {
            throw new IllegalArgumentException("command type is reserved (it would touch safety): " + handler.type());
        }
        if (handlers.putIfAbsent(handler.type(), handler) != null) {
            throw new IllegalArgumentException("command type registered twice: " + handler.type());
        }
        families.put(handler.type(), family);
        signatures.put(handler.type(), handler.signature());
        return this;
    }

    public CommandRegistry register(String family, List<CommandHandler> handlers) {
        handlers.forEach(h -> register(family, h));
        return this;
    }

    /**
     * Registers a family the catalog in context 0 shows as one line of command names, to keep context 0 short as
     * the registry grows; {@code help} lists them with their summaries, {@code help <type>} gives the arguments.
     */
    public CommandRegistry registerCompact(String family, List<CommandHandler> handlers) {
        compact.add(family);
        return register(family, handlers);
    }

    /**
     * Marks every command registered so far as touching only the database (the built-in families: diary, notes,
     * settings…), so the executor runs a row of them in one write transaction, each command in a savepoint. A family
     * registered later (processes, files, an LLM, MCP tools) is not, nor is one a test registers: each of those
     * commands has a transaction of its own.
     */
    public CommandRegistry markDatabaseOnly() {
        databaseOnly.addAll(handlers.keySet());
        return this;
    }

    /** Whether {@code type}'s command touches only the database ({@link #markDatabaseOnly}). */
    public boolean databaseOnly(String type) {
        return databaseOnly.contains(type);
    }

    /** Whether {@code family} was registered compact (a rare family: native tool calling reaches it through "use"). */
    public boolean compact(String family) {
        return compact.contains(family);
    }

    public Optional<CommandHandler> find(String type) {
        CommandHandler h = handlers.get(type);
        if (h != null) return Optional.of(h);
        for (LateCommands l : late) {
            Optional<CommandHandler> found = l.find(type);
            if (found.isPresent()) return found;
        }
        return Optional.empty();
    }

    public List<CommandHandler> all() {
        return Collections.unmodifiableList(new ArrayList<>(handlers.values()));
    }

    public List<String> types() {
        return List.copyOf(handlers.keySet());
    }

    /** The family a type was registered in. */
    public Optional<String> familyOf(String type) {
        return Optional.ofNullable(families.get(type));
    }

    /**
     * {@code args} with the aliases a model wrote for {@code type}'s arguments renamed ({@link Signature#normalise});
     * a copy as given for a type nobody handles.
     */
    public ObjectNode normalised(String type, ObjectNode args) {
        Signature s = signatures.get(type);
        return s == null ? args.deepCopy() : s.normalise(args);
    }

    /**
     * For context 0: per family a header line, then one line per command, its arguments and summary
     * ({@code - file_write(path: string, content: string) — write …}); a compact family is one line of names. Last,
     * how to get a command's example.
     */
    public String catalog() {
        return catalog(false);
    }

    /** Every command with its summary, compact families included (what {@code help} without a type returns). */
    public String fullCatalog() {
        return catalog(true);
    }

    private String catalog(boolean full) {
        Map<String, List<CommandHandler>> byFamily = new LinkedHashMap<>();
        handlers.values().forEach(h -> byFamily.computeIfAbsent(families.get(h.type()), f -> new ArrayList<>()).add(h));
        StringBuilder sb = new StringBuilder();
        byFamily.forEach((family, members) -> {
            if (compact.contains(family) && !full) {
                sb.append(family).append(": ").append(String.join(", ", members.stream().map(CommandHandler::type).toList()))
                        .append('\n');
                return;
            }
            sb.append(family).append(":\n");
            members.forEach(h -> sb.append("- ").append(signatures.get(h.type()).line(h.type())).append(" — ")
                    .append(h.summary()).append('\n'));
        });
        return sb.append("An argument written name? is optional. help <type> gives a command's arguments and an example: "
                + "{\"type\": \"help\", \"args\": {\"type\": \"diary_search\"}}.\n").toString();
    }

    /**
     * What {@code help} without a type returns: every family, how many commands it has, and how to list one. A model
     * sees at most 1,000 characters of a result (context 2), which the whole catalogue is ten times over; each
     * family's list ({@link #family}) fits.
     */
    public String families() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        handlers.keySet().forEach(t -> counts.merge(families.get(t), 1, Integer::sum));
        List<String> each = new ArrayList<>();
        counts.forEach((family, n) -> each.add(family + " (" + n + ")"));
        return "command families: " + String.join(", ", each) + ".\nhelp {\"type\": \"<family>\"} lists a family's"
                + " commands with what each does, e.g. {\"type\": \"help\", \"args\": {\"type\": \"notes\"}}; help"
                + " {\"type\": \"<command>\"} gives a command's arguments and an example.";
    }

    /** The commands of {@code family}, one {@code - type — summary} line each, if there is such a family. */
    public Optional<String> family(String family) {
        StringBuilder sb = new StringBuilder();
        handlers.values().stream().filter(h -> family.equals(families.get(h.type())))
                .forEach(h -> sb.append("- ").append(h.type()).append(" — ").append(h.summary()).append('\n'));
        if (sb.length() == 0) return Optional.empty();
        return Optional.of(family + ":\n" + sb + "help {\"type\": \"<command>\"} gives a command's arguments and an"
                + " example.");
    }

    /** One command's signature and summary, the other names its arguments are accepted under, and a whole command to copy. */
    public static String help(CommandHandler h) {
        Signature s = h.signature();
        String aliases = s.aliasLine();
        return s.line(h.type()) + " — " + h.summary() + "\n"
                + (aliases.isEmpty() ? "" : "also accepted: " + aliases + "\n")
                + "args: " + h.argsExample() + "\n"
                + "example: {\"cmd_id\": \"c-1\", \"type\": \"" + h.type() + "\", \"args\": " + h.argsExample() + "}";
    }
}
