package dev.hmpagent.mcp;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.commands.CommandOutcome;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;

/** A tool's result as a command's outcome: its text, and {@code isError} as a failure. */
final class ToolResults {
    /** The most of one result process_log keeps (the rest is cut, saying so). */
    static final int MAX_RESULT_CHARS = 16_000;
    private static final ObjectMapper JSON = Json.mapper();

    private ToolResults() { }

    static CommandOutcome outcome(McpSchema.CallToolResult result) {
        String text = text(result);
        if (text.length() > MAX_RESULT_CHARS) {
            text = text.substring(0, MAX_RESULT_CHARS) + "\n… (cut at " + MAX_RESULT_CHARS + " characters)";
        }
        return Boolean.TRUE.equals(result.isError()) ? CommandOutcome.error(text.isEmpty() ? "the tool failed" : text)
                : CommandOutcome.ok(text.isEmpty() ? "(no output)" : text);
    }

    /** The text contents in order; other contents named by their kind; the structured content when no text came. */
    static String text(McpSchema.CallToolResult result) {
        List<String> parts = new ArrayList<>();
        List<McpSchema.Content> contents = result.content() == null ? List.of() : result.content();
        for (McpSchema.Content c : contents) {
            if (c instanceof McpSchema.TextContent t) parts.add(t.text());
            else if (c instanceof McpSchema.ImageContent i) parts.add("[image " + i.mimeType() + "]");
            else if (c instanceof McpSchema.AudioContent a) parts.add("[audio " + a.mimeType() + "]");
            else if (c instanceof McpSchema.ResourceLink l) parts.add("[resource " + l.uri() + "]");
            else if (c instanceof McpSchema.EmbeddedResource r) parts.add(embedded(r));
            else parts.add("[" + c.type() + "]");
        }
        if (parts.isEmpty() && result.structuredContent() != null) {
            try {
                parts.add(JSON.writeValueAsString(result.structuredContent()));
            } catch (JsonProcessingException e) {
                parts.add("[structured content that is not JSON]");
            }
        }
        return String.join("\n", parts);
    }

    private static String embedded(McpSchema.EmbeddedResource r) {
        if (r.resource() instanceof McpSchema.TextResourceContents t) return t.text();
        return "[resource " + r.resource().uri() + "]";
    }
}
