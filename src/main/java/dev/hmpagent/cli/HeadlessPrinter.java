package dev.hmpagent.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What `agent run` prints: one line per event on stdout, human-readable by default or JSON lines
 * ({@code --json}) with a timestamp and tick id on each (the latest tick, for lines not about one). Thoughts and no-op frames only with
 * {@code --verbose}. Text from the model has its control characters removed. Thread-safe.
 */
final class HeadlessPrinter implements EventSink {
    private static final Pattern CONTROL = Pattern.compile("[\\p{Cc}&&[^\\t]]");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Longest message printed whole on a text line (JSON lines carry every message whole). */
    static final int MAX_MESSAGE_CHARS = 4_096;

    private final PrintWriter out;
    private final Clock clock;
    private final boolean json;
    private final boolean verbose;
    private final String dbPath;
    /** The newest tick id printed: lines not about one tick (problems, state changes) carry it. */
    private long lastTick;

    /** @param dbPath the database file, named in the command that prints a clipped message whole */
    HeadlessPrinter(PrintWriter out, Clock clock, boolean json, boolean verbose, String dbPath) {
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
        String ts = clock.instant().toString();
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
        if (event instanceof AgentEvent.Info i) return ts + " · " + oneLine(i.text());
        if (event instanceof AgentEvent.CommandDone c) {
            return ts + " tick " + c.tickId() + " [" + c.type() + " " + c.cmdId() + "] " + c.status() + ": " + oneLine(c.result());
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

    private static String oneLine(String s) {
        return CONTROL.matcher(s.replace("\r\n", "\n").replace('\n', ' ')).replaceAll("").strip();
    }
}
