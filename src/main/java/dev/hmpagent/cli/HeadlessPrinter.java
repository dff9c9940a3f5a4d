package dev.hmpagent.cli;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import java.io.PrintWriter;
import dev.hmpagent.store.ProcessStatus;
import java.time.Clock;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What `agent run` prints: one line per event on stdout, human-readable by default or JSON lines
 * ({@code --json}) with a timestamp and tick id on each (the latest tick, for lines not about one). A text line starts
 * with the person's local time ({@code 14:03:07}); JSON keeps UTC, as the file does. By default a line says what a
 * person needs: what the agent did and said, what failed in plain words (the world's error, without the words the
 * safety monitor writes for the model), state changes. With {@code --verbose} also thoughts, no-op frames, the
 * machinery's details (the reflex, a frame overrun) and each result as the model read it. Text from the model has its
 * control characters removed. Thread-safe.
 */
final class HeadlessPrinter implements EventSink {
    private static final Pattern CONTROL = Pattern.compile("[\\p{Cc}&&[^\\t]]");
    private static final ObjectMapper JSON = Json.mapper();
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);
    /** The first line the monitor puts before a result when the same action keeps failing. */
    private static final String ALERT = "SYSTEM ALERT:";
    /** Longest message printed whole on a text line (JSON lines carry every message whole). */
    static final int MAX_MESSAGE_CHARS = 4_096;

    private final PrintWriter out;
    private final Clock clock;
    private final ZoneId zone;
    private final boolean json;
    private final boolean verbose;
    private final String dbPath;
    /** The newest tick id printed: lines not about one tick (problems, state changes) carry it. */
    private long lastTick;

    /**
     * @param dbPath the database file, named in the command that prints a clipped message whole
     * @param zone   the person's time zone, for the time at the start of a text line
     */
    HeadlessPrinter(PrintWriter out, Clock clock, ZoneId zone, boolean json, boolean verbose, String dbPath) {
        this.zone = Objects.requireNonNull(zone, "zone");
        this.dbPath = Objects.requireNonNull(dbPath, "dbPath");
        this.out = Objects.requireNonNull(out, "out");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.json = json;
        this.verbose = verbose;
    }

    @Override
    public synchronized void emit(AgentEvent event) {
        String line = json ? json(event) : human(event);
        if (line == null) return;
        out.println(line);
        out.flush();
    }

    private String human(AgentEvent event) {
        String ts = TIME.format(clock.instant().atZone(zone));
        if (event instanceof AgentEvent.MessageToUser m) {
            return ts + " tick " + m.tickId() + " agent> " + clipped(m.text(), "SELECT text FROM notes WHERE "
                    + (m.noteId() > 0 ? "id = " + m.noteId() : "source = 'llm' AND tick_id = " + m.tickId()));
        }
        if (event instanceof AgentEvent.ProseAnswer p) {
            // the reply sent no message: its prose answers, marked apart from a message as in the REPL
            return ts + " tick " + p.tickId() + " agent (thought)> " + clipped(p.text(),
                    "SELECT content FROM llm_recent_responses WHERE tick_id = " + p.tickId());
        }
        if (event instanceof AgentEvent.TickDone t) {
            return ts + " tick " + t.tickId() + " " + t.outcome() + " · " + t.promptTokens() + " in · "
                    + t.completionTokens() + " out · " + t.durationMs() + " ms";
        }
        if (event instanceof AgentEvent.Problem p) return ts + " ! " + oneLine(p.text());
        // the first failed try says all of it; later ones would repeat it every back-off step (JSON keeps each)
        if (event instanceof AgentEvent.Retrying r) return r.attempt() > 1 ? null : ts + " ! " + oneLine(r.text());
        if (event instanceof AgentEvent.Info i) return i.detail() && !verbose ? null : ts + " · " + oneLine(i.text());
        if (event instanceof AgentEvent.CommandDone c) {
            return ts + " tick " + c.tickId() + " [" + c.type() + " " + c.cmdId() + "] " + c.status() + ": "
                    + oneLine(verbose ? c.result() : plain(c));
        }
        if (!verbose) return null;
        if (event instanceof AgentEvent.Thought t) {
            return ts + " tick " + t.tickId() + " (thought" + (t.interrupted() ? ", interrupted" : "") + ") " + oneLine(t.text());
        }
        if (event instanceof AgentEvent.NoOp n) return ts + " · nothing new (no-op frame " + n.noOpTicks() + ")";
        return null;
    }

    /** On one line; a runaway text is cut, as in the REPL, with the exact command ({@code query}) that prints it all. */
    private String clipped(String text, String query) {
        String line = oneLine(text);
        if (line.length() <= MAX_MESSAGE_CHARS) return line;
        return line.substring(0, MAX_MESSAGE_CHARS) + "… (" + (line.length() - MAX_MESSAGE_CHARS)
                + " more characters; all of it: sqlite3 " + CheckCommand.quoted(dbPath) + " \"" + query + "\")";
    }

    private String json(AgentEvent event) {
        if (!verbose && (event instanceof AgentEvent.Thought || event instanceof AgentEvent.NoOp)) {
            return null;
        }
        // the stream of a reply is for a live screen; the lines carry the reply once it is complete
        if (event instanceof AgentEvent.CallStarted || event instanceof AgentEvent.ReplyDelta
                || event instanceof AgentEvent.CallEnded) {
            return null;
        }
        ObjectNode o = JSON.createObjectNode();
        o.put("ts", clock.instant().toString());
        if (event instanceof AgentEvent.MessageToUser m) {
            o.put("event", "message").put("tick", m.tickId()).put("note_id", m.noteId()).put("text", m.text());
        } else if (event instanceof AgentEvent.ProseAnswer p) {
            o.put("event", "prose").put("tick", p.tickId()).put("text", p.text());
        } else if (event instanceof AgentEvent.TickDone t) {
            o.put("event", "tick").put("tick", t.tickId()).put("outcome", t.outcome()).put("prompt_tokens", t.promptTokens())
                    .put("completion_tokens", t.completionTokens()).put("duration_ms", t.durationMs());
        } else if (event instanceof AgentEvent.Thought t) {
            o.put("event", "thought").put("tick", t.tickId()).put("interrupted", t.interrupted()).put("text", t.text());
        } else if (event instanceof AgentEvent.CommandDone c) {
            o.put("event", "command").put("tick", c.tickId()).put("cmd_id", c.cmdId()).put("type", c.type())
                    .put("status", c.status()).put("result", c.result());
        } else if (event instanceof AgentEvent.NoOp n) {
            o.put("event", "noop").put("tick", lastTick).put("noop_ticks", n.noOpTicks());
        } else if (event instanceof AgentEvent.Problem p) {
            o.put("event", "problem").put("tick", lastTick).put("text", p.text());
        } else if (event instanceof AgentEvent.Info i) {
            o.put("event", "info").put("tick", lastTick).put("text", i.text());
        } else if (event instanceof AgentEvent.Retrying r) {
            o.put("event", "problem").put("tick", lastTick).put("text", r.text()).put("attempt", r.attempt())
                    .put("next_try", r.nextTry().toString());
        }
        if (o.has("tick")) lastTick = Math.max(lastTick, o.path("tick").asLong());
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write an event as JSON", e);
        }
    }

    /**
     * A command's result without the safety monitor's words for the model (the pain and its meaning, an alert, the
     * line saying the agent stopped, which the state change says to people once): what the world returned.
     */
    private static String plain(AgentEvent.CommandDone c) {
        ProcessStatus status = ProcessStatus.fromColumn(c.status());
        boolean failed = status != ProcessStatus.OK && status != ProcessStatus.CLOSE;
        Matcher code = Pattern.compile("^PAIN [a-z]+ \\([0-9.]+\\) from [a-z]+ " + Pattern.quote(c.type()) + ": (\\S+): ")
                .matcher(c.result().startsWith(ALERT) ? c.result().substring(c.result().indexOf('\n') + 1) : c.result());
        return RecordedOutput.of(c.type(), failed, code.find() ? code.group(1) : null, c.result()).output();
    }

    private static String oneLine(String s) {
        return CONTROL.matcher(s.replace("\r\n", "\n").replace('\n', ' ')).replaceAll("").strip();
    }
}
