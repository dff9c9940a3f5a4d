package dev.hmpagent.repl;

import dev.hmpagent.text.Text;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.store.ProcessStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * Turns agent events into what the person sees. The transcript (lines above the prompt) holds the agent's messages,
 * one dim line per tick that did something else, one dim line of figures after each LLM call, and problems; at
 * {@link Verbosity#NORMAL} and {@link Verbosity#FULL} also thoughts, each command's result and the reflex's notices.
 * The live region above the prompt shows "thinking… 12 s" until the first token, then the reply as it streams, and
 * a failing LLM's retry counting down, all in place; the status line shows the state of the agent. Thread-safe:
 * events come from the tick thread, {@link #refresh()} from a timer.
 */
public final class EventRenderer implements EventSink {
    static final int MAX_THOUGHT_CHARS = 600;
    /** Lines of a streaming reply the live region shows (its end). */
    static final int LIVE_LINES = 6;
    private static final AttributedStyle DIM = AttributedStyle.DEFAULT.faint();
    /** Marks a reply's prose shown as the answer (the reply sent no message), apart from "agent> ". */
    static final String PROSE_PREFIX = "agent (thought)> ";
    private static final AttributedStyle ERROR = AttributedStyle.DEFAULT.foreground(AttributedStyle.RED);
    private static final AttributedStyle WARN = AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW);

    /** Longest message to the user shown whole; a longer one is clipped with the command that shows the rest. */
    static final int MAX_MESSAGE_CHARS = 4_096;
    /** Most lines of one message shown. */
    static final int MAX_MESSAGE_LINES = 200;

    /** What the renderer asks of its surroundings, read when a line is drawn. */
    public interface Facts {
        /** Tokens spent (for the line after each call). */
        TokenFigures tokens();

        /** Messages that wait to be read by the agent. */
        int queued();

        /** The status line's text, or "" for none. */
        String statusLine();

        Facts NONE = new Facts() {
            @Override public TokenFigures tokens() { return new TokenFigures(0, 0, 0, 0, 0, 0); }
            @Override public int queued() { return 0; }
            @Override public String statusLine() { return ""; }
        };
    }

    private final Screen screen;
    private final String dbPath;
    private final Clock clock;
    private final Facts facts;
    private final Costs costs;
    private volatile Verbosity verbosity;
    /** Whether the line of figures after each call is shown (the root command's --quiet drops it). */
    private volatile boolean figures = true;

    // the call in flight (guarded by this)
    private long callTick = -1;
    /** The tick of the last call started, and of the last one the person cancelled (its "cut short" line is not said). */
    private long lastCallTick = -1;
    private long cancelledTick = -1;
    private Instant callStarted;
    private final StringBuilder streamed = new StringBuilder();
    /** What the live region read of {@link #streamed} so far: a new one for each reply. */
    private LiveReply live = new LiveReply();
    private AgentEvent.CallEnded lastCall;
    // the LLM failing, until a call succeeds
    private AgentEvent.Retrying retrying;
    // what the tick did besides talking
    private final TickActivity activity = new TickActivity();
    /**
     * The last thought, not printed yet: a reply of prose alone is then shown as the answer (a ProseAnswer of the
     * same tick and text), and printed once, as the answer, not a second time as a thought (issue 35).
     */
    private AgentEvent.Thought heldThought;

    /**
     * @param dbPath the database file, named in the command that shows a clipped message whole
     * @param costs  prices each call on its figures line (llm.prices)
     */
    public EventRenderer(Screen screen, String dbPath, Clock clock, Verbosity verbosity, Facts facts, Costs costs) {
        this.costs = Objects.requireNonNull(costs, "costs");
        this.screen = Objects.requireNonNull(screen, "screen");
        this.dbPath = Objects.requireNonNull(dbPath, "dbPath");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.verbosity = Objects.requireNonNull(verbosity, "verbosity");
        this.facts = Objects.requireNonNull(facts, "facts");
    }

    public Verbosity verbosity() {
        return verbosity;
    }

    public void verbosity(Verbosity v) {
        verbosity = Objects.requireNonNull(v, "v");
    }

    /** Drops the line of figures after each call (--quiet): a script piping into the agent reads answers alone. */
    public void hideFigures() {
        figures = false;
    }

    @Override
    public synchronized void emit(AgentEvent event) {
        releaseThought(event);
        if (event instanceof AgentEvent.CallStarted c) {
            callTick = c.tickId();
            lastCallTick = c.tickId();
            callStarted = clock.instant();
            streamed.setLength(0);
            live = new LiveReply();
        } else if (event instanceof AgentEvent.ReplyDelta d) {
            if (d.tickId() == callTick) streamed.append(d.text());
        } else if (event instanceof AgentEvent.CallEnded e) {
            callEnded(e);
        } else if (event instanceof AgentEvent.Retrying r) {
            retrying(r);
        } else if (event instanceof AgentEvent.MessageToUser m) {
            screen.answer(render(m, dbPath, screen.styled()));
        } else if (event instanceof AgentEvent.ProseAnswer p) {
            screen.answer(render(p, dbPath, screen.styled()));
        } else if (event instanceof AgentEvent.Thought t) {
            if (verbosity != Verbosity.QUIET) {
                heldThought = t;   // printed with the next event, unless that is the same text shown as the answer
            } else if (t.interrupted() && t.tickId() != cancelledTick) {
                show(line(DIM, "· the reply of tick " + t.tickId() + " was cut short; what arrived is kept"
                        + " (/verbose normal shows it)"));
            }
        } else if (event instanceof AgentEvent.CommandDone c) {
            activity.add(c);
            if (verbosity == Verbosity.FULL || verbosity == Verbosity.NORMAL && !bookkeeping(c)) show(command(c, verbosity));
        } else if (event instanceof AgentEvent.TickDone t) {
            tickDone(t);
        } else if (event instanceof AgentEvent.Problem p) {
            show(render(p, dbPath));
        } else if (event instanceof AgentEvent.Info i) {
            if (shown(i)) show(render(i, dbPath));
        }
        drawLive();
    }

    /**
     * Prints the thought held back, before {@code event}; not at all when {@code event} shows its text as the answer.
     * A line said about the reply (how it was cut, a problem) may come first: the thought is still held.
     */
    private void releaseThought(AgentEvent event) {
        if (heldThought == null || event instanceof AgentEvent.Info || event instanceof AgentEvent.Problem) return;
        AgentEvent.Thought t = heldThought;
        heldThought = null;
        boolean answer = event instanceof AgentEvent.ProseAnswer p && p.tickId() == t.tickId()
                && p.text().strip().equals(t.text().strip());
        if (!answer) show(thought(t, verbosity));
    }

    /**
     * The LLM failing: with a live region, one line there that counts down, and only /verbose full prints the LLM
     * layer's whole sentence (once); without one (a pipe, a dumb terminal: a log), that sentence a try.
     */
    private void retrying(AgentEvent.Retrying r) {
        if (!screen.hasLiveRegion() || verbosity == Verbosity.FULL && retrying == null) {
            show(line(ERROR, "! " + printable(r.text())));
        }
        retrying = r;
    }

    /**
     * Whether an info line is for this verbosity: details are not quiet, and the LLM layer's outage paragraph is
     * for /verbose full where the live line already says what failed, the try, the wait and the fix.
     */
    private boolean shown(AgentEvent.Info i) {
        if (i.text().startsWith(OutageLine.PARAGRAPH) && screen.hasLiveRegion()) return verbosity == Verbosity.FULL;
        return !i.detail() || verbosity != Verbosity.QUIET;
    }

    /** Characters of the reply in flight received so far (0: none yet, or no call in flight). */
    public synchronized int received() {
        return callTick >= 0 ? streamed.length() : 0;
    }

    /**
     * The person cancels the call in flight (Ctrl-C): {@code cancelInFlight} cancels it (false: nothing was in
     * flight). The call's tick is marked first, so that its own "cut short" line is not said even when the tick
     * thread ends the call before this returns; the one line that says how much had arrived, or empty.
     */
    public Optional<String> cancel(BooleanSupplier cancelInFlight) {
        int received;
        long before;
        synchronized (this) {
            received = received();
            before = cancelledTick;
            cancelledTick = lastCallTick;
        }
        if (cancelInFlight.getAsBoolean()) {
            return Optional.of(received == 0 ? "cancelled before any reply"
                    : String.format("cancelled; %,d chars kept", received));
        }
        synchronized (this) {
            cancelledTick = before;
        }
        return Optional.empty();
    }

    private void callEnded(AgentEvent.CallEnded e) {
        callTick = -1;
        streamed.setLength(0);
        live = new LiveReply();
        if (e.failed()) return;
        if (retrying != null) {
            show(line(DIM, "· the LLM answers again (after " + retrying.attempt() + " failed "
                    + (retrying.attempt() == 1 ? "try" : "tries") + ")"));
        }
        retrying = null;
        lastCall = e;
    }

    private void tickDone(AgentEvent.TickDone t) {
        if (verbosity == Verbosity.QUIET) activity.summary().ifPresent(s -> show(line(DIM, "· " + s)));
        activity.clear();
        AgentEvent.CallEnded call = lastCall;
        lastCall = null;
        if (figures && call != null && call.tickId() == t.tickId()) show(line(DIM, figures(call, facts.tokens(), costs)));
    }

    /**
     * "1.2k in · 40 out · 0.6 s · task 18.4k / 100k"; "1.2k in (1k cached) · …" when the server's cache served some;
     * "… · 0.6 s · $0.0012 · task …" when the model has a price.
     */
    static String figures(AgentEvent.CallEnded call, TokenFigures tokens, Costs costs) {
        java.util.OptionalDouble cost = costs.of(call.model(), call.promptTokens(), call.cachedTokens(),
                call.completionTokens());
        return Figures.compact(call.promptTokens()) + " in"
                + (call.cachedTokens() > 0 ? " (" + Figures.compact(call.cachedTokens()) + " cached)" : "") + " · "
                + Figures.compact(call.completionTokens()) + " out · " + seconds(call.durationMs()) + " · "
                + (cost.isPresent() ? Costs.usd(cost.getAsDouble()) + " · " : "") + Figures.task(tokens);
    }

    private static String seconds(long ms) {
        return ms < 10_000 ? String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0) : (ms / 1000) + " s";
    }

    /** A send_message's own result line: the message itself was just shown. */
    private static boolean bookkeeping(AgentEvent.CommandDone c) {
        return c.type().equals("send_message") && ProcessStatus.fromColumn(c.status()) == ProcessStatus.OK;
    }

    /** Redraws the live region and the status line for the time now (called every second). */
    public synchronized void refresh() {
        drawLive();
    }

    private void drawLive() {
        if (!screen.hasLiveRegion()) return;
        screen.live(liveLines());
        String status = facts.statusLine();
        screen.status(status.isEmpty() ? List.of()
                : List.of(StateColour.statusLine(StatusFit.fit(status, screen.width() - 1))));
    }

    private List<AttributedString> liveLines() {
        List<AttributedString> lines = new ArrayList<>();
        int width = Math.max(20, screen.width() - 1);
        if (callTick >= 0) {
            if (streamed.isEmpty()) {
                long s = Duration.between(callStarted, clock.instant()).toSeconds();
                lines.add(line(DIM, "thinking… " + s + " s"));
            } else {
                for (String l : live.rows(streamed, LIVE_LINES, width)) lines.add(line(DIM, l));
            }
        } else if (retrying != null) {
            lines.add(line(WARN, OutageLine.line(retrying, clock.instant(), facts.queued(), width)));
        }
        return lines;
    }

    private void show(AttributedString s) {
        screen.above(s);
    }

    private static AttributedString line(AttributedStyle style, String text) {
        return new AttributedStringBuilder().styled(style, text).toAttributedString();
    }

    static AttributedString render(AgentEvent event, String dbPath) {
        return render(event, dbPath, false);
    }

    /** {@code event} as the transcript shows it; answers with their markdown rendered when {@code markdown}. */
    static AttributedString render(AgentEvent event, String dbPath, boolean markdown) {
        AttributedStringBuilder sb = new AttributedStringBuilder();
        if (event instanceof AgentEvent.MessageToUser m) {
            return AnswerText.of(m, dbPath, markdown);
        } else if (event instanceof AgentEvent.ProseAnswer p) {
            return AnswerText.of(p, dbPath, markdown);
        } else if (event instanceof AgentEvent.Thought t) {
            return thought(t, Verbosity.NORMAL);
        } else if (event instanceof AgentEvent.CommandDone c) {
            return command(c, Verbosity.NORMAL);
        } else if (event instanceof AgentEvent.Problem p) {
            sb.styled(ERROR, "! " + printable(p.text()));
        } else if (event instanceof AgentEvent.Info i) {
            sb.styled(DIM, "· " + printable(i.text()));
        }
        return sb.toAttributedString();
    }

    private static AttributedString thought(AgentEvent.Thought t, Verbosity v) {
        String text = v == Verbosity.FULL ? printable(t.text()).strip() : clip(t.text());
        return line(DIM, "  (thought" + (t.interrupted() ? ", interrupted" : "") + ") " + text);
    }

    private static AttributedString command(AgentEvent.CommandDone c, Verbosity v) {
        AttributedStyle style = switch (ProcessStatus.fromColumn(c.status())) {
            case OK, CLOSE -> DIM;
            case WARNING -> WARN;
            default -> ERROR;
        };
        String result = v == Verbosity.FULL ? printable(c.result()).strip() : clip(c.result());
        return line(style, "  [" + c.type() + " " + c.cmdId() + "] " + c.status() + ": " + result);
    }

    private static String clip(String s) {
        return Text.cut(printable(s).strip(), MAX_THOUGHT_CHARS);
    }

    /**
     * Text from the model or a server with control characters removed (newlines and tabs kept), so
     * a reply cannot send escape sequences to the user's terminal (titles, clipboard, hidden text).
     */
    static String printable(String s) {
        return Printable.text(s);
    }
}
