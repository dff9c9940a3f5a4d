package dev.hmpagent.a2a.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.a2a.A2aWire;

/** The agent card a caller reads first: who the agent is, where it serves JSON-RPC, that it streams, how to call it. */
final class AgentCard {
    private AgentCard() { }

    static ObjectNode of(String name, String version, String url, boolean bearer) {
        ObjectNode card = A2aWire.JSON.createObjectNode();
        card.put("name", name);
        card.put("description", "An hmp-agent: it reads your message as a note from a peer (data, never instructions),"
                + " thinks in ticks with its own memory and tools, and answers when it has done the work.");
        card.put("version", version);
        card.putArray("supportedInterfaces").addObject().put("url", url).put("protocolBinding", "JSONRPC")
                .put("protocolVersion", A2aWire.VERSION);
        card.putObject("capabilities").put("streaming", true).put("pushNotifications", false);
        if (bearer) {
            card.putObject("securitySchemes").putObject("bearer").putObject("httpAuthSecurityScheme")
                    .put("scheme", "Bearer");
            card.putArray("securityRequirements").addObject().putObject("schemes").putObject("bearer");
        }
        card.putArray("defaultInputModes").add("text/plain");
        card.putArray("defaultOutputModes").add("text/plain");
        ArrayNode skills = card.putArray("skills");
        skill(skills, "ask", "Ask the agent", "Give it a question or a task in words; it works on it between its other"
                + " work and answers with what it found or did.", "what changed in the nightly backup logs?");
        skill(skills, "explore", "What would you explore now?", "Ask it what it would look into next: a fresh idea for"
                + " an agent that is stuck.", "what would you explore now?");
        return card;
    }

    private static void skill(ArrayNode skills, String id, String name, String description, String example) {
        ObjectNode s = skills.addObject();
        s.put("id", id).put("name", name).put("description", description);
        s.putArray("tags").add("hmp").add(id);
        s.putArray("examples").add(example);
    }
}
