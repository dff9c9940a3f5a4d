package dev.hmpagent.cli;

import dev.hmpagent.text.Json;
import dev.hmpagent.runtime.Launch;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.repl.Costs;
import dev.hmpagent.repl.ModelFigures;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.FileIdentity;
import dev.hmpagent.store.HaltFlag;
import dev.hmpagent.store.LlmCallsDao;
import dev.hmpagent.store.LlmCallsDao.ModelTokens;
import dev.hmpagent.store.NoteSpool;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.StoreException;
import dev.hmpagent.store.TickRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import dev.hmpagent.text.ShortTime;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code agent status}: the agent on a file, seen from another process. Read-only: it opens the
 * file without a write lock and never migrates it. The figures only the running agent knows
 * (phase, Hz, no-op ticks) come from its heartbeat row, with their age. Tokens by model: the session is the calls
 * sent since the runner (live or not) started. Exit 7 while not ACTIVE (RESTING too: with why and until when).
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Show the agent's safety state, what it is doing, its last tick and what waits (read-only).",
                "Exit code 0: ACTIVE; 7: stopped, locked or resting."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent status",
                "  agent status --json | jq -r .safety_state",
                "  agent status --tree",
                "  agent status --db ~/agents/ops.db || agent log -n 3"})
final class StatusCommand extends Subcommand {
    @Option(names = "--json", description = "One JSON object instead of lines.")
    boolean json;

    @Option(names = "--tree", description = "Also the children this agent spawned (agent spawn, agent_spawn), and "
            + "theirs, indented, each with its safety state and runner (their files read read-only).")
    boolean tree;

    StatusCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() throws Exception {
        Path named = configForDatabase().agent().db().toAbsolutePath();
        if (!Files.isRegularFile(named)) {
            List<Long> holders = FileIdentity.pidsHoldingDeleted(named);
            if (!holders.isEmpty()) throw new StoreException(StoreException.Kind.IO, named + " does not exist: "
                    + deletedUnder(named, holders));
        }
        Path db = existingDb();
        try (Store store = Store.openReadOnly(db, launch().clock())) {
            Seen seen = look(db, store);
            StatusTree.Node family = tree ? StatusTree.of(db, store, launch().clock()) : null;
            if (json) {
                say(json(seen, family));
            } else {
                lines(seen);
                if (family != null) StatusTree.lines(family).forEach(this::say);
            }
            return seen.safety().active() && !seen.flagged() ? ExitCodes.OK : ExitCodes.STOPPED;
        }
    }

    /**
     * What one look at the file saw: read once, then shown as lines or as JSON. {@code runnerOrNull} and
     * {@code sessionOrNull} are null when no agent runs on the file.
     */
    private record Seen(Path db, Instant now, SafetyStatus safety, HaltFlag flag, boolean flagged, RunnerLock lock,
                        RunnerLock.Seen runnerOrNull, List<TickRecord> last, long tokens, long pending, int inbox,
                        long running, List<ModelTokens> sessionOrNull, List<ModelTokens> lifetime, Costs costs) {
        Optional<RunnerLock.Seen> runner() {
            return Optional.ofNullable(runnerOrNull);
        }

        Optional<List<ModelTokens>> session() {
            return Optional.ofNullable(sessionOrNull);
        }
    }

    private Seen look(Path db, Store store) {
        HaltFlag flag = new HaltFlag(db);
        RunnerLock lock = RunnerLock.forThisProcess(store);
        Optional<RunnerLock.Seen> runner = lock.seen();
        LlmCallsDao calls = store.tables().llmCalls();
        AgentLogDao log = store.tables().agentLog();
        return new Seen(db, launch().clock().instant(), new SafetyControl(store).current(), flag, flag.raised(), lock,
                runner.orElse(null), log.latest(1), log.totalTokens(), store.tables().notes().unreadCount(),
                NoteSpool.waitingIn(db), store.tables().processLog().runningCount(),
                runner.map(s -> calls.byModelSince(s.holder().startedAt())).orElse(null), calls.byModel(),
                new Costs(configForDatabase().llm().prices()));
    }

    private static String json(Seen s, StatusTree.Node familyOrNull) throws IOException {
        ObjectMapper mapper = Json.mapper();
        ObjectNode o = mapper.createObjectNode();
        if (familyOrNull != null) StatusTree.json(familyOrNull, o.putArray("children"));
        o.put("file", s.db().toString());
        o.put("safety_state", s.safety().state().name());
        o.put("stop_reason", s.safety().reason().map(r -> r.columnName()).orElse(null));
        o.put("detail", s.safety().detail().isEmpty() ? null : s.safety().detail());
        o.put("since", s.safety().since().toString());
        o.put("until", s.safety().until().map(Instant::toString).orElse(null));
        o.put("halt_flag", s.flagged());
        runnerJson(o, s);
        if (s.last().isEmpty()) {
            o.putNull("last_tick");
            o.putNull("last_tick_at");
        } else {
            o.put("last_tick", s.last().get(0).tickId());
            o.put("last_tick_at", s.last().get(0).endedAt().toString());
        }
        o.put("tokens_used", s.tokens());
        o.put("pending_notes", s.pending());
        o.put("inbox_waiting", s.inbox());
        o.put("running_processes", s.running());
        ObjectNode byModel = o.putObject("tokens_by_model");
        if (s.session().isPresent()) {
            models(byModel.putArray("session"), s.session().get(), s.costs());
        } else {
            byModel.putNull("session");
        }
        models(byModel.putArray("lifetime"), s.lifetime(), s.costs());
        total(byModel, "session", s.session().map(s.costs()::total).orElse(null), s.costs());
        total(byModel, "lifetime", s.costs().total(s.lifetime()), s.costs());
        return mapper.writeValueAsString(o);
    }

    private static void runnerJson(ObjectNode o, Seen seen) {
        if (seen.runner().isPresent()) {
            RunnerLock.Seen s = seen.runner().get();
            ObjectNode r = o.putObject("runner");
            r.put("pid", s.holder().pid());
            r.put("host", s.holder().host());
            r.put("started_at", s.holder().startedAt().toString());
            boolean live = seen.lock().live(s.holder());
            r.put("alive", live);
            r.put("state", RunnerState.of(s.holder(), live).json());
            r.put("heartbeat_age_s", seconds(Duration.between(s.holder().heartbeatAt(), seen.now())));
            r.put("phase", s.published().phase());
            r.put("hz", s.published().hz());
            r.put("noop_ticks", s.published().noOpTicks());
            if (s.publishedAt() != null) r.put("published_age_s", seconds(Duration.between(s.publishedAt(), seen.now())));
        } else {
            o.putNull("runner");
            List<Long> holders = FileIdentity.pidsHoldingDeleted(seen.db());
            if (!holders.isEmpty()) o.put("deleted_file_held_by", deletedUnder(seen.db(), holders));
        }
    }

    private void lines(Seen s) {
        SafetyStatus safety = s.safety();
        say(s.db().getFileName() + ": " + safety.label() + safety.until().map(u -> " until " + local(u, s)).orElse("")
                + " since " + local(safety.since(), s)
                + (safety.detail().isEmpty() ? "" : " (" + safety.detail() + ")"));
        if (safety.resting()) {
            say("resting: the agent thinks again at " + local(safety.until().orElseThrow(), s) + (safety.until().get()
                    .isAfter(s.now()) ? "" : " (past: when the agent next looks)") + ", or sooner at a message from"
                    + " a person or `agent unlock`");
        }
        if (s.flagged()) {
            say("halted by " + s.flag().file().getFileName() + " (the file could not take the halt yet; "
                    + "`agent unlock` lifts it)");
        }
        say(s.runner().map(r -> runnerLine(r, s.lock().live(r.holder()), s.now())).orElseGet(() -> {
            List<Long> holders = FileIdentity.pidsHoldingDeleted(s.db());
            return holders.isEmpty() ? "runner: none (no agent runs on this file)"
                    : "runner: none in this file; " + deletedUnder(s.db(), holders);
        }));
        say(s.last().isEmpty() ? "last tick: none yet" : "last tick: " + s.last().get(0).tickId() + " at "
                + local(s.last().get(0).endedAt(), s) + " (" + s.last().get(0).outcome() + "); tokens used " + s.tokens());
        Costs costs = s.costs();
        s.session().ifPresent(m -> ModelFigures.lines(m, costs).forEach(l -> say("session: " + l)));
        ModelFigures.lines(s.lifetime(), costs).forEach(l -> say("lifetime: " + l));
        if (costs.any()) {
            say("cost: " + s.session().map(m -> "session " + costs.total(m).text() + "; ").orElse("")
                    + "lifetime " + costs.total(s.lifetime()).text());
        }
        say("pending notes: " + s.pending() + "; waiting in " + NoteSpool.fileFor(s.db()).getFileName() + ": "
                + s.inbox() + "; running processes: " + s.running());
    }

    /**
     * One object a model: {@code {"model", "calls", "prompt_tokens", "cached_tokens", "completion_tokens",
     * "cost_usd"}}, the cost null when the model has no price.
     */
    private static void models(ArrayNode array, List<ModelTokens> models, Costs costs) {
        for (ModelTokens m : models) {
            ObjectNode o = array.addObject().put("model", m.model()).put("calls", m.calls())
                    .put("prompt_tokens", m.promptTokens()).put("cached_tokens", m.cachedTokens())
                    .put("completion_tokens", m.completionTokens());
            java.util.OptionalDouble cost = costs.of(m);
            if (cost.isPresent()) o.put("cost_usd", usd(cost.getAsDouble()));
            else o.putNull("cost_usd");
        }
    }

    /**
     * {@code <scope>_cost_usd}: the priced models' sum (null without a runner, without prices, or when no model of the
     * scope has one) and {@code <scope>_unpriced}: the models it leaves out (null without a runner or prices).
     * {@code totalOrNull} is null without a runner.
     */
    private static void total(ObjectNode o, String scope, Costs.Total totalOrNull, Costs costs) {
        Optional<Costs.Total> t = Optional.ofNullable(totalOrNull).filter(x -> costs.any());
        if (t.isPresent() && t.get().usd().isPresent()) o.put(scope + "_cost_usd", usd(t.get().usd().getAsDouble()));
        else o.putNull(scope + "_cost_usd");
        if (t.isPresent()) {
            ArrayNode unpriced = o.putArray(scope + "_unpriced");
            t.get().unpriced().forEach(unpriced::add);
        } else {
            o.putNull(scope + "_unpriced");
        }
    }

    /** Dollars to the millionth: no binary noise in the JSON. */
    private static double usd(double usd) {
        return Math.round(usd * 1_000_000) / 1_000_000.0;
    }

    /** What {@code agent status} can tell when the file was deleted or replaced under a running agent. */
    static String deletedUnder(Path db, List<Long> pids) {
        return "the file was deleted or replaced while pid " + pids.stream().map(String::valueOf)
                .collect(java.util.stream.Collectors.joining(", ")) + " held it open (an agent stops by itself"
                + " within a second of that, exit 5; what it wrote since is lost). The next start uses " + db;
    }

    /** A time for the text lines: local and short (the JSON keeps UTC). */
    private String local(Instant t, Seen s) {
        return ShortTime.of(t, s.now(), zone(launch().env()));
    }

    /** The person's time zone: {@code TZ} of the environment when it names one, else the system's. */
    static ZoneId zone(java.util.Map<String, String> env) {
        String tz = env.get("TZ");
        try {
            return tz == null || tz.isBlank() ? ZoneId.systemDefault() : ZoneId.of(tz.startsWith(":") ? tz.substring(1) : tz);
        } catch (java.time.DateTimeException e) {
            return ZoneId.systemDefault();   // a TZ Java does not know (a POSIX rule): the system's zone
        }
    }

    private String runnerLine(RunnerLock.Seen s, boolean alive, Instant now) {
        double age = seconds(Duration.between(s.holder().heartbeatAt(), now));
        String who = "runner: pid " + s.holder().pid() + " on " + s.holder().host() + " since "
                + ShortTime.of(s.holder().startedAt(), now, zone(launch().env()))
                + ", heartbeat " + age + " s ago" + RunnerState.of(s.holder(), alive).words(s.holder(), age);
        if (s.publishedAt() == null || s.published().phase() == null) return who;
        return who + "; " + s.published().phase() + (s.published().hz() > 0
                ? String.format(Locale.ROOT, " at %.2f Hz", s.published().hz()) : "")
                + ", " + s.published().noOpTicks() + " no-op ticks (as of "
                + seconds(Duration.between(s.publishedAt(), now)) + " s ago)";
    }

    private static double seconds(Duration d) {
        return Math.round(d.toMillis() / 100.0) / 10.0;
    }
}
