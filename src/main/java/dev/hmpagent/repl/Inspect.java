package dev.hmpagent.repl;

import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.LlmCallsDao;
import dev.hmpagent.store.LoggedTick;
import dev.hmpagent.store.SafetyCountersDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The slash commands that show what is in the agent's file — /tokens, /notes, /memory, /diary, /graph, /ps, /log,
 * /config — and /model, which shows and switches the LLM the cycle thinks with; and {@link #tokens()} for the line
 * after each call and the status line.
 *
 * <p>Runs on the REPL's input thread while the tick thread writes on its own connection: it reads on a connection of
 * its own and never writes. A file that cannot be read now (locked, damaged, gone) answers a command with one line;
 * nothing here throws at the REPL. Its calls take turns (the status line may ask for {@link #tokens()} while a command
 * runs on the input thread), so its one connection serves one thread at a time, as a {@link Store} requires.
 */
public final class Inspect {
    static final int MAX_NOTES = 200;
    static final int MAX_TICKS = 1_000;
    static final int MAX_QUERY = 200;
    /** Most of the endpoint's models /model lists (Tab completes the rest). */
    static final int MAX_LISTED = 40;
    /** How long /model waits for the endpoint's list of models the first time; Tab waits less. */
    private static final java.time.Duration LISTING_WAIT = java.time.Duration.ofSeconds(3);
    private static final java.time.Duration COMPLETION_WAIT = java.time.Duration.ofSeconds(2);

    /**
     * What tokens are measured against.
     *
     * @param task  safety.token_budget: what one task may spend (a person may add to it with agent unlock)
     * @param daily safety.daily_token_budget: what any 24 hours may spend; 0 = no such limit
     */
    public record Budgets(long task, long daily) {
        public Budgets {
            if (task < 0 || daily < 0) throw new IllegalArgumentException("budgets must not be negative");
        }
    }

    private final Store store;
    private final long sessionAfterTick;
    private final Instant sessionStart;
    private final Budgets budgets;
    private final ModelChoice models;
    private final Supplier<List<String>> configLines;
    private final Function<LoggedTick, String> tickLine;
    private final LocalTimes times;
    private final FileViews views;
    private final AgentLogDao log;
    private final SafetyCountersDao counters;
    private final LlmCallsDao calls;
    /** The ticks before this session, summed once: the lifetime figure is that plus the session's. */
    private AgentLogDao.TokenSums before;
    private volatile TokenFigures last;

    /**
     * @param store            a connection of its own to the agent's file (e.g. {@code store.connectAgain(Duration.ofMillis(500))}:
     *                         a short busy timeout, so a locked file answers at once); only read; its clock is "now"
     * @param zone             the person's time zone, in which times are shown
     * @param sessionAfterTick the last tick before this session began ({@code AgentLogDao.lastTickId()} at start)
     * @param sessionStart     when this session began: its LLM calls are those sent since
     * @param configLines      the lines {@code agent config} prints (effective values with provenance, secrets masked)
     * @param tickLine         one tick as {@code agent log} prints it
     */
    public Inspect(Store store, ZoneId zone, long sessionAfterTick, Instant sessionStart, Budgets budgets,
                   ModelChoice models, Supplier<List<String>> configLines, Function<LoggedTick, String> tickLine) {
        this.store = Objects.requireNonNull(store, "store");
        this.sessionAfterTick = sessionAfterTick;
        this.sessionStart = Objects.requireNonNull(sessionStart, "sessionStart");
        this.budgets = Objects.requireNonNull(budgets, "budgets");
        this.models = Objects.requireNonNull(models, "models");
        this.configLines = Objects.requireNonNull(configLines, "configLines");
        this.tickLine = Objects.requireNonNull(tickLine, "tickLine");
        this.times = new LocalTimes(store.clock(), Objects.requireNonNull(zone, "zone"));
        this.views = new FileViews(store, times);
        this.log = store.tables().agentLog();
        this.counters = store.tables().safetyCounters();
        this.calls = store.tables().llmCalls();
        this.last = new TokenFigures(0, 0, budgets.task(), 0, budgets.daily(), 0);
    }

    /** The commands, for the REPL's registry. */
    public List<SlashCommand> commands() {
        return List.of(
                new SlashCommand("/tokens", "", "tokens this session, this task against its budget, last 24 h, lifetime",
                        guarded("/tokens", noArgs("/tokens", this::tokenReport))),
                new SlashCommand("/notes", "[n]", "the latest n notes (default 10), unread count first",
                        guarded("/notes", args -> count(args, "/notes", "notes", 10, MAX_NOTES, views::notes))),
                new SlashCommand("/memory", "[query]", "the agent's memory entries, newest first, or those containing query",
                        guarded("/memory", args -> query(args, "/memory", views::memory))),
                new SlashCommand("/diary", "[query]", "diary entries, newest first, or those containing query",
                        guarded("/diary", args -> query(args, "/diary", views::diary))),
                new SlashCommand("/graph", "[concept]", "the concept graph's most linked concepts, or one concept's links",
                        guarded("/graph", args -> query(args, "/graph", views::graph))),
                new SlashCommand("/ps", "", "commands in flight, then the latest finished (process_log)",
                        guarded("/ps", noArgs("/ps", views::processes))),
                new SlashCommand("/log", "[n]", "the last n ticks (default 10), as agent log prints them",
                        guarded("/log", args -> count(args, "/log", "ticks", 10, MAX_TICKS, this::ticks))),
                new SlashCommand("/config", "", "the effective config and where each value came from",
                        guarded("/config", noArgs("/config", this::config))),
                new SlashCommand("/model", "[name]", "the model in use and the configured ones; /model <name> switches",
                        guarded("/model", this::model), this::modelIds));
    }

    /**
     * Tokens spent: this session, this task against its budget, the last 24 hours, lifetime. A few indexed reads
     * (cheap enough once a second); while the file cannot be read, the last figures read.
     */
    public synchronized TokenFigures tokens() {
        try {
            AgentLogDao.TokenSums session = log.tokensAfter(sessionAfterTick);
            SafetyCountersDao.Row task = counters.current();
            long day = counters.tokensSince(times.now().minus(Duration.ofDays(1)));
            last = new TokenFigures(session.total(), task.taskTokens(), budgets.task() + task.extraBudget(), day,
                    budgets.daily(), before().total() + session.total());
        } catch (StoreException unreadable) {
            // the status line keeps what it showed; /tokens says why
        }
        return last;
    }

    /**
     * Tokens by model this session and lifetime, for /status; empty while the file cannot be read (the rest of
     * /status still shows).
     */
    public synchronized java.util.Optional<ModelUsage> usage() {
        try {
            return java.util.Optional.of(new ModelUsage(calls.byModelSince(sessionStart), calls.byModel()));
        } catch (StoreException unreadable) {
            return java.util.Optional.empty();
        }
    }

    private AgentLogDao.TokenSums before() {
        if (before == null) before = log.tokensUpTo(sessionAfterTick);
        return before;
    }

    private String tokenReport() {
        AgentLogDao.TokenSums session = log.tokensAfter(sessionAfterTick);
        AgentLogDao.TokenSums lifetime = before().plus(session);
        SafetyCountersDao.Row task = counters.current();
        long day = counters.tokensSince(times.now().minus(Duration.ofDays(1)));
        long taskBudget = budgets.task() + task.extraBudget();
        String added = task.extraBudget() > 0 ? " (" + Figures.compact(budgets.task()) + " configured + "
                + Figures.compact(task.extraBudget()) + " added)" : "";
        String since = task.taskStartedAt() == null ? "  no task yet: a message starts one"
                : "  since " + times.at(task.taskStartedAt());
        String daily = budgets.daily() > 0 ? Figures.against(day, budgets.daily())
                : Figures.compact(day) + "  (no daily budget: safety.daily_token_budget)";
        return "this session  " + sums(session) + "\n"
                + "this task     " + Figures.against(task.taskTokens(), taskBudget) + added + since + "\n"
                + "last 24 h     " + daily + "\n"
                + "lifetime      " + sums(lifetime);
    }

    private static String sums(AgentLogDao.TokenSums s) {
        String split = Figures.compact(s.prompt()) + " in · " + Figures.compact(s.completion()) + " out"
                + (s.comparison() > 0 ? " · " + Figures.compact(s.comparison()) + " comparing replies" : "");
        return Figures.compact(s.total()) + " in " + s.llmCalls() + (s.llmCalls() == 1 ? " LLM call" : " LLM calls")
                + (s.total() > 0 ? " (" + split + ")" : "");
    }

    private String ticks(int n) {
        List<LoggedTick> ticks = log.lastLogged(n);
        if (ticks.isEmpty()) return "no ticks yet";
        return ticks.stream().map(tickLine).map(Printable::text).collect(Collectors.joining("\n"));
    }

    private String config() {
        return configLines.get().stream().map(Printable::text).collect(Collectors.joining("\n"));
    }

    private String model(String args) {
        List<ModelChoice.Choice> choices = models.choices();
        if (args.isEmpty()) return Printable.text(modelList(choices));
        List<ModelChoice.Choice> found = ModelMatch.of(args, choices);
        if (found.size() > 1) {
            return Printable.oneLine("/model: \"" + args + "\" names several entries; choose by id: "
                    + ModelMatch.list(found), 400);
        }
        try {
            return Printable.oneLine(found.isEmpty() ? models.useModel(args) : models.use(found.get(0).id()), 400);
        } catch (IllegalArgumentException e) {
            return Printable.oneLine("/model: cannot use " + (found.isEmpty() ? args : found.get(0).id()) + ": "
                    + e.getMessage(), 400);
        }
    }

    /** What is in use, the configured entries, and the models the endpoint lists (any of them, or another, by name). */
    private String modelList(List<ModelChoice.Choice> choices) {
        StringBuilder sb = new StringBuilder("in use: " + Printable.oneLine(models.current(), 200));
        sb.append("\nconfigured (/model <id> switches):");
        int idWidth = choices.stream().mapToInt(c -> c.id().length()).max().orElse(0);
        int modelWidth = choices.stream().mapToInt(c -> c.model().length()).max().orElse(0);
        int endpointWidth = choices.stream().mapToInt(c -> c.endpoint().length()).max().orElse(0);
        for (ModelChoice.Choice c : choices) {
            sb.append("\n  ").append(pad(c.id(), idWidth)).append("  ").append(pad(c.model(), modelWidth))
                    .append("  ").append(c.name().isEmpty() ? c.endpoint() : pad(c.endpoint(), endpointWidth)
                            + "  " + c.name());
        }
        List<String> offered = models.offered(LISTING_WAIT);
        if (offered.isEmpty()) {
            String why = models.notOffered();
            sb.append("\n/model <name> asks the configured endpoint for any model by name")
                    .append(why.isEmpty() ? "" : " (its list of models: " + Printable.oneLine(why, 120) + ")");
        } else {
            sb.append("\nthe endpoint lists ").append(offered.size()).append(offered.size() == 1 ? " model" : " models")
                    .append(" (/model <name> switches; Tab completes):");
            offered.stream().limit(MAX_LISTED).forEach(m -> sb.append("\n  ").append(Printable.oneLine(m, 120)));
            if (offered.size() > MAX_LISTED) sb.append("\n  … and ").append(offered.size() - MAX_LISTED).append(" more");
        }
        return sb.toString();
    }

    private synchronized List<String> modelIds() {
        List<String> names = new java.util.ArrayList<>();
        try {
            models.choices().forEach(c -> names.add(c.id()));
        } catch (StoreException unreadable) {
            // the configured entries cannot be read now; the endpoint's own list still completes
        }
        models.offered(COMPLETION_WAIT).stream().filter(m -> !names.contains(m)).forEach(names::add);
        return names;
    }

    /** A command taking no argument: anything after it is refused with a line saying so. */
    private static SlashCommand.Handler noArgs(String name, Supplier<String> show) {
        return args -> args.isEmpty() ? show.get() : name + " takes no arguments; type just " + name;
    }

    /** A count between 1 and {@code max} ({@code dflt} when none is given), or a line saying what to type. */
    private static String count(String args, String name, String what, int dflt, int max,
                                java.util.function.IntFunction<String> show) {
        if (args.isEmpty()) return show.apply(dflt);
        OptionalInt n = number(args);
        if (n.isEmpty()) return name + " takes a number of " + what + ", e.g. " + name + " 20";
        if (n.getAsInt() < 1 || n.getAsInt() > max) {
            return name + " shows 1 to " + max + " " + what + ", not " + n.getAsInt() + "; e.g. " + name + " 20";
        }
        return show.apply(n.getAsInt());
    }

    private static OptionalInt number(String s) {
        if (!s.matches("-?\\d{1,9}")) return OptionalInt.empty();
        return OptionalInt.of(Integer.parseInt(s));
    }

    /** Free text up to {@value #MAX_QUERY} characters, printable, or a line saying it is too long. */
    private static String query(String args, String name, Function<String, String> show) {
        String q = Printable.oneLine(args, Integer.MAX_VALUE);
        if (q.length() > MAX_QUERY) return name + " takes at most " + MAX_QUERY + " characters to look for; shorten it";
        return show.apply(q);
    }

    /** Runs a command; a file that cannot be read now answers with one line instead of an exception. */
    private SlashCommand.Handler guarded(String name, SlashCommand.Handler handler) {
        return args -> {
            synchronized (this) {
                return run(name, handler, args);
            }
        };
    }

    private String run(String name, SlashCommand.Handler handler, String args) {
        try {
            return handler.run(args);
        } catch (StoreException e) {
            return name + ": cannot read " + store.path().getFileName() + " now ("
                    + Printable.oneLine(e.getMessage(), 200) + "); try again in a moment";
        }
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
