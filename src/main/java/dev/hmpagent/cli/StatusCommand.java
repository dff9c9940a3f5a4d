package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.repl.Costs;
import dev.hmpagent.repl.ModelFigures;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.store.FileIdentity;
import dev.hmpagent.store.HaltFlag;
import dev.hmpagent.store.LlmCallsDao;
import dev.hmpagent.store.LlmCallsDao.ModelTokens;
import dev.hmpagent.store.NoteSpool;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.StoreException;
import dev.hmpagent.store.TickRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code agent status}: the agent on a file, seen from another process. Read-only: it opens the
 * file without a write lock and never migrates it. The figures only the running agent knows
 * (phase, Hz, no-op ticks) come from its heartbeat row, with their age. Tokens by model: the session is the calls
 * sent since the runner (live or not) started. Exit 7 while not ACTIVE.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Show the agent's safety state, what it is doing, its last tick and what waits (read-only).",
                "Exit code 0: ACTIVE; 7: stopped or locked."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent status",
                "  agent status --json | jq -r .safety_state",
                "  agent status --db ~/agents/ops.db || agent log -n 3"})
final class StatusCommand extends Subcommand {
    @Option(names = "--json", description = "One JSON object instead of lines.")
    boolean json;

    StatusCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() throws Exception {
        Path named = config().agent().db().toAbsolutePath();
        if (!Files.isRegularFile(named)) {
            List<Long> holders = FileIdentity.pidsHoldingDeleted(named);
            if (!holders.isEmpty()) throw new StoreException(StoreException.Kind.IO, named + " does not exist: "
                    + deletedUnder(named, holders));
        }
        Path db = existingDb();
        try (Store store = Store.openReadOnly(db, launch().clock())) {
            Instant now = launch().clock().instant();
            SafetyStatus safety = new SafetyControl(store).current();
            HaltFlag flag = new HaltFlag(db);
            boolean flagged = flag.raised();
            RunnerLock lock = RunnerLock.forThisProcess(store);
            Optional<RunnerLock.Seen> runner = lock.seen();
            List<TickRecord> last = store.tables().agentLog().latest(1);
            long tokens = store.tables().agentLog().totalTokens();
            long pending = store.tables().notes().unreadCount();
            int inbox = NoteSpool.waitingIn(db);
            long running = store.tables().processLog().runningCount();
            LlmCallsDao calls = store.tables().llmCalls();
            Optional<List<ModelTokens>> session = runner.map(s -> calls.byModelSince(s.holder().startedAt()));
            List<ModelTokens> lifetime = calls.byModel();
            Costs costs = new Costs(config().llm().prices());
            if (json) {
                ObjectMapper mapper = new ObjectMapper();
                ObjectNode o = mapper.createObjectNode();
                o.put("file", db.toString());
                o.put("safety_state", safety.state().name());
                o.put("stop_reason", safety.reason().map(r -> r.columnName()).orElse(null));
                o.put("detail", safety.detail().isEmpty() ? null : safety.detail());
                o.put("since", safety.since().toString());
                o.put("halt_flag", flagged);
                if (runner.isPresent()) {
                    RunnerLock.Seen s = runner.get();
                    ObjectNode r = o.putObject("runner");
                    r.put("pid", s.holder().pid());
                    r.put("host", s.holder().host());
                    r.put("started_at", s.holder().startedAt().toString());
                    r.put("alive", lock.live(s.holder()));
                    r.put("heartbeat_age_s", seconds(Duration.between(s.holder().heartbeatAt(), now)));
                    r.put("phase", s.published().phase());
                    r.put("hz", s.published().hz());
                    r.put("noop_ticks", s.published().noOpTicks());
                    if (s.publishedAt() != null) r.put("published_age_s", seconds(Duration.between(s.publishedAt(), now)));
                } else {
                    o.putNull("runner");
                }
                if (runner.isEmpty()) {
                    List<Long> holders = FileIdentity.pidsHoldingDeleted(db);
                    if (!holders.isEmpty()) o.put("deleted_file_held_by", deletedUnder(db, holders));
                }
                if (last.isEmpty()) {
                    o.putNull("last_tick");
                    o.putNull("last_tick_at");
                } else {
                    o.put("last_tick", last.get(0).tickId());
                    o.put("last_tick_at", last.get(0).endedAt().toString());
                }
                o.put("tokens_used", tokens);
                o.put("pending_notes", pending);
                o.put("inbox_waiting", inbox);
                o.put("running_processes", running);
                ObjectNode byModel = o.putObject("tokens_by_model");
                if (session.isPresent()) {
                    models(byModel.putArray("session"), session.get(), costs);
                } else {
                    byModel.putNull("session");
                }
                models(byModel.putArray("lifetime"), lifetime, costs);
                total(byModel, "session", session.map(costs::total), costs);
                total(byModel, "lifetime", Optional.of(costs.total(lifetime)), costs);
                say(mapper.writeValueAsString(o));
            } else {
                say(db.getFileName() + ": " + safety.label() + " since " + safety.since()
                        + (safety.detail().isEmpty() ? "" : " (" + safety.detail() + ")"));
                if (flagged) {
                    say("halted by " + flag.file().getFileName() + " (the file could not take the halt yet; "
                            + "`agent unlock` lifts it)");
                }
                say(runner.map(s -> runnerLine(s, lock.live(s.holder()), now)).orElseGet(() -> {
                    List<Long> holders = FileIdentity.pidsHoldingDeleted(db);
                    return holders.isEmpty() ? "runner: none (no agent runs on this file)"
                            : "runner: none in this file; " + deletedUnder(db, holders);
                }));
                say(last.isEmpty() ? "last tick: none yet" : "last tick: " + last.get(0).tickId() + " at "
                        + last.get(0).endedAt() + " (" + last.get(0).outcome() + "); tokens used " + tokens);
                session.ifPresent(s -> ModelFigures.lines(s, costs).forEach(l -> say("session: " + l)));
                ModelFigures.lines(lifetime, costs).forEach(l -> say("lifetime: " + l));
                if (costs.any()) {
                    say("cost: " + session.map(s -> "session " + costs.total(s).text() + "; ").orElse("")
                            + "lifetime " + costs.total(lifetime).text());
                }
                say("pending notes: " + pending + "; waiting in " + NoteSpool.fileFor(db).getFileName() + ": " + inbox
                        + "; running processes: " + running);
            }
            return safety.active() && !flagged ? ExitCodes.OK : ExitCodes.STOPPED;
        }
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
     */
    private static void total(ObjectNode o, String scope, Optional<Costs.Total> total, Costs costs) {
        Optional<Costs.Total> t = total.filter(x -> costs.any());
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

    private static String runnerLine(RunnerLock.Seen s, boolean alive, Instant now) {
        String who = "runner: pid " + s.holder().pid() + " on " + s.holder().host() + " since " + s.holder().startedAt()
                + ", heartbeat " + seconds(Duration.between(s.holder().heartbeatAt(), now)) + " s ago"
                + (alive ? "" : " (it looks stopped: the next agent takes the file over)");
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
