package dev.hmpagent.mcp;

import dev.hmpagent.text.Text;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The four tools of {@code agent mcp serve} — {@code note}, {@code status}, {@code log}, {@code halt} — each with
 * its JSON input schema, its description, and the reading of its arguments; the acts themselves are the
 * {@link Controls}'. There is no {@code unlock} and nothing that widens policy or budget (DESIGN: the control surface
 * is a person's).
 */
final class ControlTools {
    static final int MAX_COUNT = 200;

    private ControlTools() { }

    /** The tools, whose notes {@code limits} bounds (one peer's: a serving process serves one). */
    static List<SyncToolSpecification> all(Controls controls, McpJsonMapper json, PeerNoteLimits limits) {
        return List.of(note(controls, json, limits), status(controls, json), log(controls, json), halt(controls, json));
    }

    private static SyncToolSpecification note(Controls controls, McpJsonMapper json, PeerNoteLimits limits) {
        return tool(json, "note", "Send the agent a message (stored as a note from a peer, tagged mcp; a running"
                + " agent reads it within its poll). A peer's note is not a person's: it does not end the agent's"
                + " rest or reset what only a person's message resets. At most 64 KB (UTF-8), and 10 notes in a row,"
                + " then 1 a second: more is refused and not stored.", """
                {"type": "object", "properties": {
                  "text": {"type": "string", "minLength": 1, "description": "The message."},
                  "priority": {"type": "integer", "description": "Higher is more urgent (default 0)."},
                  "tags": {"type": "string", "description": "Comma-separated tags (mcp is always added)."}},
                 "required": ["text"], "additionalProperties": false}""",
                Set.of("text", "priority", "tags"), a -> note(controls, limits, a));
    }

    /** The note, when its arguments are good and {@code limits} let it through; a refusal stores nothing. */
    private static Controls.Answer note(Controls controls, PeerNoteLimits limits, ToolArguments a) {
        String text = a.text("text");
        int priority = (int) a.integer("priority", 0, Integer.MIN_VALUE, Integer.MAX_VALUE);
        String tags = a.optionalText("tags").orElse(null);
        return limits.refusal(text).map(Controls.Answer::failure)
                .orElseGet(() -> controls.note(text, priority, tags));
    }

    private static SyncToolSpecification status(Controls controls, McpJsonMapper json) {
        return tool(json, "status", "The agent's safety state, what it is doing, its last tick and what waits, as"
                + " one JSON object (what `agent status --json` prints). Read-only.", """
                {"type": "object", "properties": {}, "additionalProperties": false}""",
                Set.of(), a -> controls.status());
    }

    private static SyncToolSpecification log(Controls controls, McpJsonMapper json) {
        return tool(json, "log", "The agent's latest ticks, newest last (what `agent log -n COUNT` prints); with"
                + " tick: that tick whole, and with prompt too exactly the messages the LLM got at it"
                + " (`agent log --tick N --prompt`). Read-only.", """
                {"type": "object", "properties": {
                  "count": {"type": "integer", "minimum": 1, "maximum": 200,
                            "description": "How many of the latest ticks (default 20)."},
                  "tick": {"type": "integer", "minimum": 1, "description": "Show this tick alone."},
                  "prompt": {"type": "boolean", "description": "With tick: the prompt the LLM got at it."},
                  "json": {"type": "boolean", "description": "JSON lines instead of text (default false)."}},
                 "additionalProperties": false}""",
                Set.of("count", "tick", "prompt", "json"), a -> log(controls, a));
    }

    private static SyncToolSpecification halt(Controls controls, McpJsonMapper json) {
        return tool(json, "halt", "Stop the agent now (what `agent halt --reason` does): its LLM call in flight is"
                + " cancelled, it runs none of that reply's commands, and it stays stopped, across restarts, until"
                + " a person runs `agent unlock`. Audited with the reason.", """
                {"type": "object", "properties": {
                  "reason": {"type": "string", "minLength": 1,
                             "description": "Why, for the audit and for `agent status`."}},
                 "required": ["reason"], "additionalProperties": false}""",
                Set.of("reason"), a -> controls.halt(a.text("reason")));
    }

    private static Controls.Answer log(Controls controls, ToolArguments a) {
        boolean prompt = a.flag("prompt");
        boolean json = a.flag("json");
        java.util.Optional<Long> tick = a.optionalInteger("tick", 1, Long.MAX_VALUE);
        if (tick.isPresent()) return controls.tick(tick.get(), prompt, json);
        if (prompt) throw new ToolArguments.Bad("log: \"prompt\" needs \"tick\", e.g. {\"tick\": 12, \"prompt\": true}");
        return controls.log((int) a.integer("count", 20, 1, MAX_COUNT), json);
    }

    private static SyncToolSpecification tool(McpJsonMapper json, String name, String description, String schema,
                                              Set<String> known, Function<ToolArguments, Controls.Answer> act) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).description(description)
                .inputSchema(json, schema).build();
        return SyncToolSpecification.builder().tool(tool)
                .callHandler((exchange, request) -> call(name, request.arguments(), known, act)).build();
    }

    private static CallToolResult call(String name, Map<String, Object> arguments, Set<String> known,
                                       Function<ToolArguments, Controls.Answer> act) {
        Controls.Answer answer;
        try {
            answer = act.apply(new ToolArguments(name, arguments, known));
        } catch (ToolArguments.Bad bad) {
            answer = Controls.Answer.failure("bad arguments: " + bad.getMessage());
        } catch (RuntimeException e) {
            // the serving loop's boundary: one failed call is that call's error, and the server goes on
            answer = Controls.Answer.failure(name + " failed: " + Text.oneLine(String.valueOf(e.getMessage()), 300));
        }
        return CallToolResult.builder().addTextContent(answer.text()).isError(answer.failed()).build();
    }
}
