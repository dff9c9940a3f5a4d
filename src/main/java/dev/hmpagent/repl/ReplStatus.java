package dev.hmpagent.repl;

import dev.hmpagent.cycle.CycleStatus;
import dev.hmpagent.cycle.TickLoop;
import dev.hmpagent.store.NoteSpool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Objects;

/** What {@code /status} shows: safety, phase, tick, tokens, usage by model, messages, verbosity, LLM, file, time. */
final class ReplStatus {
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final TickLoop loop;
    private final NoteSpool inbox;
    private final Repl.Describe describe;
    private final Repl.Controls controls;
    private final EventRenderer renderer;
    private final Clock clock;

    ReplStatus(TickLoop loop, NoteSpool inbox, Repl.Describe describe, Repl.Controls controls, EventRenderer renderer,
               Clock clock) {
        this.loop = Objects.requireNonNull(loop, "loop");
        this.inbox = Objects.requireNonNull(inbox, "inbox");
        this.describe = Objects.requireNonNull(describe, "describe");
        this.controls = Objects.requireNonNull(controls, "controls");
        this.renderer = Objects.requireNonNull(renderer, "renderer");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    String text() {
        CycleStatus s = loop.cycle().status();
        ZoneId zone = clock.getZone();
        Instant now = clock.instant();
        StringBuilder sb = new StringBuilder();
        sb.append("  safety   ").append(controls.safety()).append('\n');
        sb.append("  phase    ").append(s.phase().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
        if (s.trouble() == CycleStatus.Trouble.LLM_REJECTED) {
            sb.append("; the LLM refused the last request (").append(s.lastError())
                    .append("): it is asked again when you send a message");
        } else if (s.retryAt().isPresent()) {
            long in = Math.max(0, (Duration.between(now, s.retryAt().get()).toMillis() + 999) / 1000);
            sb.append("; retry in ").append(in).append(" s (at ").append(CLOCK.format(s.retryAt().get().atZone(zone)))
                    .append(") after: ").append(s.lastError());
        }
        sb.append('\n');
        sb.append("  tick     ").append(s.lastTickId()).append('\n');
        TokenFigures t = controls.tokens();
        sb.append("  tokens   session ").append(Figures.compact(t.session()))
                .append(" · task ").append(Figures.compact(t.task())).append(" / ").append(Figures.compact(t.taskBudget()))
                .append(" · lifetime ").append(Figures.compact(t.lifetime())).append('\n');
        usageLines(sb);
        int waiting = inbox.waiting();
        sb.append("  messages ").append(inbox.unread()).append(" unread");
        if (waiting > 0) {
            sb.append(", ").append(waiting).append(" typed ").append(waiting == 1 ? "line waits" : "lines wait")
                    .append(" to be stored (in ").append(inbox.file().getFileName()).append(')');
        }
        sb.append('\n');
        sb.append("  verbose  ").append(renderer.verbosity().word()).append('\n');
        sb.append("  LLM      ").append(describe.model().get()).append(" at ").append(describe.endpoint().get()).append('\n');
        sb.append("  file     ").append(describe.dbPath()).append('\n');
        sb.append("  time     ").append(LOCAL.format(now.atZone(zone))).append(' ').append(zone.getId());
        return sb.toString();
    }

    /**
     * One line a model for the session's calls, then for the file's life ({@code session  gpt-x  1.2k in · …}), and
     * with prices configured, what both cost.
     */
    private void usageLines(StringBuilder sb) {
        java.util.Optional<ModelUsage> usage = controls.usage();
        if (usage.isEmpty()) {
            sb.append("  by model cannot read the file now; try again in a moment\n");
            return;
        }
        Costs costs = describe.costs();
        ModelFigures.lines(usage.get().session(), costs).forEach(l -> sb.append("  session  ").append(l).append('\n'));
        ModelFigures.lines(usage.get().lifetime(), costs).forEach(l -> sb.append("  lifetime ").append(l).append('\n'));
        if (costs.any()) {
            sb.append("  cost     session ").append(costs.total(usage.get().session()).text())
                    .append(" · lifetime ").append(costs.total(usage.get().lifetime()).text()).append('\n');
        }
    }
}
