package dev.hmpagent.a2a.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.hmpagent.commands.catalogue.PeerLink;
import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.text.Json;
import dev.hmpagent.text.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A peer's A2A agent card, checked: it must offer a JSON-RPC interface of protocol 1.x ({@code supportedInterfaces[]}
 * with {@code protocolBinding} "JSONRPC" and {@code protocolVersion} "1.…"), which is where messages are posted.
 *
 * @param name        the card's name (may be empty)
 * @param description the card's description (may be empty)
 * @param endpoint    the JSON-RPC interface's URL
 * @param streaming   {@code capabilities.streaming}: the peer answers {@code SendStreamingMessage}
 * @param needsToken  the card lists security requirements (a bearer token, as this client sends one)
 * @param skills      each skill as "id (name): description"
 * @param json        the card as fetched
 */
public record AgentCard(String name, String description, String endpoint, boolean streaming, boolean needsToken,
                        List<String> skills, String json) {
    /** Where a card is, under an agent's URL. */
    public static final String WELL_KNOWN = "/.well-known/agent-card.json";

    public AgentCard {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(endpoint, "endpoint");
        skills = List.copyOf(skills);
        Objects.requireNonNull(json, "json");
    }

    /** The card in {@code json}, fetched from {@code from}; throws {@link PeerLink.Failure} (EINVAL) with one line. */
    public static AgentCard parse(String json, String from) {
        JsonNode card;
        try {
            card = Json.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new PeerLink.Failure(ErrorCode.EINVAL, "the agent card at " + from + " is not JSON ("
                    + Text.oneLine(e.getOriginalMessage(), 80) + ")");
        }
        if (card == null || !card.isObject()) {
            throw new PeerLink.Failure(ErrorCode.EINVAL, "the agent card at " + from + " is not a JSON object");
        }
        String endpoint = "";
        for (JsonNode i : card.path("supportedInterfaces")) {
            String version = i.path("protocolVersion").asText("");
            if (i.path("protocolBinding").asText("").equals("JSONRPC") && (version.equals("1") || version.startsWith("1."))
                    && !i.path("url").asText("").isBlank()) {
                endpoint = i.path("url").asText().strip();
                break;
            }
        }
        if (endpoint.isEmpty()) {
            throw new PeerLink.Failure(ErrorCode.EINVAL, "the agent card at " + from + " offers no A2A 1.x JSON-RPC "
                    + "interface (supportedInterfaces[] with url, protocolBinding \"JSONRPC\", protocolVersion \"1.0\");"
                    + " it may speak an older A2A, which this agent does not");
        }
        List<String> skills = new ArrayList<>();
        for (JsonNode s : card.path("skills")) {
            String id = s.path("id").asText(s.path("name").asText(""));
            String skillName = s.path("name").asText("");
            String what = s.path("description").asText("");
            skills.add(id + (skillName.isEmpty() || skillName.equals(id) ? "" : " (" + skillName + ")")
                    + (what.isEmpty() ? "" : ": " + Text.oneLine(what, 160)));
        }
        JsonNode requirements = card.path("securityRequirements");
        return new AgentCard(card.path("name").asText(""), card.path("description").asText(""), endpoint,
                card.path("capabilities").path("streaming").asBoolean(false),
                requirements.isArray() && !requirements.isEmpty(), skills, json);
    }

    /** Where the card of the agent at {@code url} is. */
    public static String cardUrl(String url) {
        String base = url.strip();
        if (base.endsWith(WELL_KNOWN)) return base;
        while (base.endsWith("/")) base = base.substring(0, base.length() - 1);
        return base + WELL_KNOWN;
    }

    /** What a person or the LLM reads of the card, a few lines. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append(name.isEmpty() ? "(no name)" : name).append(description.isEmpty() ? "" : ": " + description).append('\n');
        sb.append("skills: ").append(skills.isEmpty() ? "none listed" : String.join("; ", skills)).append('\n');
        sb.append("streaming: ").append(streaming ? "yes" : "no").append("; token: ")
                .append(needsToken ? "needed (bearer)" : "not needed").append("; A2A 1.x JSON-RPC at ").append(endpoint);
        return sb.toString();
    }
}
