package dev.hmpagent.cli;

import dev.hmpagent.text.Text;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.llm.Message;
import dev.hmpagent.store.LoggedTick;
import dev.hmpagent.store.TickRecord;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** How {@code agent log} shows a tick: one line for people, one JSON object per line for programs. */
final class TickLines {
    static final int EXCERPT_CHARS = 80;
    private static final Pattern CONTROL = Pattern.compile("[\\p{Cc}&&[^\\n\\t]]");

    /**
     * Only {@code --json} needs it; LogCommand makes a TickLines whenever the command tree is built, at every start
     * of every command, and a first ObjectMapper costs tens of milliseconds.
     */
    private static final class Json {
        static final ObjectMapper MAPPER = dev.hmpagent.text.Json.mapper();
    }

    /**
     * {@code tick 12  2026-11-21T10:00:03Z  thought  new message  812+95 tokens  commands 3 ok, 0 failed  The reply…};
     * {@code 812+95 tokens (768 cached)} when the server's prompt cache served some.
     */
    String line(LoggedTick t) {
        TickRecord r = t.tick();
        String tail = r.error() != null ? "error: " + oneLine(r.error()) : oneLine(t.reply());
        return (summary(t) + "  " + tail).stripTrailing();
    }

    /** The line without the excerpt, the whole reply indented under it, the error, and where the prompt is. */
    List<String> detail(LoggedTick t) {
        TickRecord r = t.tick();
        List<String> lines = new ArrayList<>();
        lines.add(summary(t) + "  took " + r.durationMs() + " ms");
        if (!t.reply().isEmpty()) {
            lines.add("  reply:");
            for (String l : printable(t.reply()).split("\\R", -1)) lines.add(("    " + l).stripTrailing());
        }
        if (r.error() != null) lines.add("  error: " + printable(r.error()).replaceAll("\\R", " "));
        lines.add(t.promptStored() ? "  prompt: agent log --tick " + r.tickId() + " --prompt"
                : "  prompt: not stored");
        return lines;
    }

    /** One JSON object: timestamp (the tick's start), tick_id, and every column of the tick, with its reply. */
    String json(LoggedTick t) {
        TickRecord r = t.tick();
        ObjectNode o = Json.MAPPER.createObjectNode()
                .put("timestamp", r.startedAt().toString())
                .put("tick_id", r.tickId())
                .put("ended_at", r.endedAt().toString())
                .put("duration_ms", r.durationMs())
                .put("outcome", r.outcome())
                .put("wake_reason", r.wakeReason())
                .put("llm_called", r.llmCalled())
                .put("prompt_tokens", r.promptTokens())
                .put("completion_tokens", r.completionTokens())
                .put("cached_tokens", t.cachedTokens())
                .put("commands_run", r.commandsRun())
                .put("commands_failed", r.commandsFailed())
                .put("stagnation", r.stagnation())
                .put("error", r.error())
                .put("reply", t.reply().isEmpty() ? null : t.reply())
                .put("prompt_stored", t.promptStored());
        return write(o);
    }

    /** The messages of tick {@code tickId} as the LLM got them: {@code {"tick_id": N, "messages": [{role, content}…]}}. */
    String json(long tickId, List<Message> messages) {
        ObjectNode o = Json.MAPPER.createObjectNode().put("tick_id", tickId);
        ArrayNode array = o.putArray("messages");
        messages.forEach(m -> array.addObject().put("role", m.role().word()).put("content", m.content()));
        return write(o);
    }

    /** {@code s} with control characters other than newline and tab removed: safe to print on a terminal. */
    static String printable(String s) {
        return CONTROL.matcher(s).replaceAll("");
    }

    private static String summary(LoggedTick t) {
        TickRecord r = t.tick();
        String tokens = r.llmCalled() ? r.promptTokens() + "+" + r.completionTokens() + " tokens"
                + (t.cachedTokens() > 0 ? " (" + t.cachedTokens() + " cached)" : "") : "no LLM call";
        String commands = r.commandsRun() + r.commandsFailed() == 0 ? "no commands"
                : "commands " + r.commandsRun() + " ok, " + r.commandsFailed() + " failed";
        return "tick " + r.tickId() + "  " + r.startedAt().truncatedTo(ChronoUnit.SECONDS) + "  " + r.outcome()
                + (r.stagnation() ? " (repeated)" : "") + "  " + (r.wakeReason() == null ? "-" : r.wakeReason())
                + "  " + tokens + "  " + commands;
    }

    /** The first non-blank line of {@code s}, printable, cut at {@value #EXCERPT_CHARS} characters. */
    static String oneLine(String s) {
        return Text.cut(printable(Text.firstLine(s)), EXCERPT_CHARS);
    }

    private String write(ObjectNode o) {
        try {
            return Json.MAPPER.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }
}
