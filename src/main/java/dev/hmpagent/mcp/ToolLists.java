package dev.hmpagent.mcp;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.config.McpServerEntry;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;

/** A server's tool list, every page of it, as our tools. */
final class ToolLists {
    private static final ObjectMapper JSON = Json.mapper();

    private ToolLists() { }

    /**
     * The server's tools: none when it does not offer the tools capability (the SDK refuses it tools/list), so such a
     * server is ready with no tools rather than a failure restarted again and again.
     */
    static List<McpSchema.Tool> of(McpSyncClient c) {
        McpSchema.ServerCapabilities offered = c.getServerCapabilities();
        return offered != null && offered.tools() == null ? List.of() : listAll(c);
    }

    /** Every page of the tool list. */
    private static List<McpSchema.Tool> listAll(McpSyncClient c) {
        List<McpSchema.Tool> all = new ArrayList<>();
        String cursor = null;
        do {
            McpSchema.ListToolsResult page = cursor == null ? c.listTools() : c.listTools(cursor);
            all.addAll(page.tools());
            cursor = page.nextCursor();
        } while (cursor != null && !cursor.isEmpty());
        return all;
    }


    /** {@code list} as the tools of {@code entry}'s server, their texts redacted of {@code secrets}. */
    static List<McpTool> tools(McpServerEntry entry, List<String> secrets, List<McpSchema.Tool> list) {
        List<McpTool> out = new ArrayList<>();
        for (McpSchema.Tool t : list) {
            ObjectNode schema = t.inputSchema() == null ? JSON.createObjectNode() : JSON.valueToTree(t.inputSchema());
            out.add(McpTool.redacted(entry.name(), t.name(), t.description() == null ? "" : t.description(), schema,
                    secrets));
        }
        return List.copyOf(out);
    }
}
