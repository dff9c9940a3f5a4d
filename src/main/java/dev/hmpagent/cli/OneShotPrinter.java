package dev.hmpagent.cli;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.repl.Costs;
import dev.hmpagent.repl.Printable;
import dev.hmpagent.repl.Screen;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;
import org.jline.utils.AttributedString;

/**
 * What {@code agent} prints when a script feeds it (input or output not a terminal, or {@code --json}): the answers
 * alone on stdout, bare (no "agent> ", no figures), or one JSON object per answer with {@code --json}; problems on
 * stderr, one line each. Everything else (figures, dim notices) goes to the REPL's renderer, which sends it to stderr,
 * unless {@code -q} asked for problems alone. The JSON fields are named as {@code agent run --json} names them.
 * Thread-safe: events come from the tick thread.
 */
final class OneShotPrinter implements EventSink {
    private static final ObjectMapper JSON = Json.mapper();

    /** How the answers are printed, and whether anything but answers and problems reaches stderr. */
    record Mode(boolean json, boolean quiet) { }

    private final Screen screen;
    private final EventSink renderer;
    private final Mode mode;
    private final Costs costs;
    private final Clock clock;
    /** The last completed LLM call: the answers of its tick carry its model, tokens and cost. */
    private AgentEvent.CallEnded call;
    /** JSON mode: the answers of the tick in flight, printed once the tick is done (with its outcome). */
    private final List<ObjectNode> answers = new ArrayList<>();
    private int retries;
    /** The tick whose call's tokens an answer carried already: a second answer of one call carries none. */
    private long billedTick = -1;

    /**
     * @param screen   answers go to {@link Screen#answer} (stdout), the rest to {@link Screen#above} (stderr)
     * @param renderer the REPL's renderer, for what is not an answer or a problem (not asked with {@code -q})
     */
    OneShotPrinter(Screen screen, EventSink renderer, Mode mode, Costs costs, Clock clock) {
        this.screen = Objects.requireNonNull(screen, "screen");
        this.renderer = Objects.requireNonNull(renderer, "renderer");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.costs = Objects.requireNonNull(costs, "costs");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public synchronized void emit(AgentEvent event) {
        if (event instanceof AgentEvent.MessageToUser m) {
            answer(m.tickId(), "message", m.text());
        } else if (event instanceof AgentEvent.ProseAnswer p) {
            answer(p.tickId(), "prose", p.text());
        } else if (event instanceof AgentEvent.Problem p) {
            problem(p.text());
        } else if (event instanceof AgentEvent.Retrying r) {
            // the first failed try says all of it; later ones would repeat it every back-off step
            if (retries++ == 0) problem(r.text());
        } else {
            if (event instanceof AgentEvent.CallEnded c && !c.failed()) {
                call = c;
                retries = 0;
            }
            if (event instanceof AgentEvent.TickDone t) flush(t.outcome());
            if (!mode.quiet()) renderer.emit(event);
        }
    }

    private void answer(long tick, String kind, String text) {
        String bare = Printable.text(text).strip();
        if (!mode.json()) {
            screen.bareAnswer(bare);
            return;
        }
        ObjectNode o = JSON.createObjectNode();
        o.put("ts", clock.instant().toString()).put("event", "answer").put("tick", tick).put("kind", kind)
                .put("text", bare);
        AgentEvent.CallEnded c = call != null && call.tickId() == tick ? call : null;
        o.put("model", c == null ? "" : c.model());
        // one call's tokens are counted once: a second answer of the same call carries none
        boolean billed = c != null && billedTick != tick;
        if (billed) billedTick = tick;
        o.put("prompt_tokens", billed ? c.promptTokens() : 0);
        o.put("cached_tokens", billed ? c.cachedTokens() : 0);
        o.put("completion_tokens", billed ? c.completionTokens() : 0);
        OptionalDouble usd = c == null ? OptionalDouble.empty() : billed
                ? costs.of(c.model(), c.promptTokens(), c.cachedTokens(), c.completionTokens()) : costs.of(c.model(), 0, 0, 0);
        if (usd.isPresent()) o.put("cost_usd", usd.getAsDouble());
        else o.putNull("cost_usd");
        answers.add(o);
    }

    /** JSON mode: prints the answers held back, each with the outcome of its tick ("" when the tick did not end). */
    private void flush(String outcome) {
        for (ObjectNode o : answers) print(o.put("outcome", outcome));
        answers.clear();
    }

    private void problem(String text) {
        screen.above(new AttributedString("! " + Printable.oneLine(text, Integer.MAX_VALUE)));
    }

    /**
     * The last line of a run: JSON mode prints the answers still held back and one object saying why the agent
     * exited ({@code exit_code} as DESIGN.md lists them, the {@code reason}, the safety state); text mode nothing.
     */
    synchronized void exited(int code, String reason, String safetyState) {
        if (!mode.json()) return;
        flush("");
        ObjectNode o = JSON.createObjectNode();
        o.put("ts", clock.instant().toString()).put("event", "exit").put("exit_code", code).put("reason", reason)
                .put("safety_state", safetyState);
        print(o);
    }

    private void print(ObjectNode o) {
        try {
            screen.answer(new AttributedString(JSON.writeValueAsString(o)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write an answer as JSON", e);
        }
    }
}
