package dev.hmpagent.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.store.A2aTasksDao;
import dev.hmpagent.text.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the A2A protocol v1.0 puts on the wire (JSON-RPC binding, proto3 JSON: camelCase, enums by name, one key per
 * oneof), as the official Python and JS SDKs send and accept it: method names, the version header, task states and
 * roles, the error codes, and the task, message and event shapes built from a stored {@link A2aTasksDao.Task}.
 */
public final class A2aWire {
    public static final ObjectMapper JSON = Json.mapper();
    public static final String VERSION = "1.0";
    public static final String VERSION_HEADER = "A2A-Version";
    public static final String CARD_PATH = "/.well-known/agent-card.json";

    public static final String SEND = "SendMessage";
    public static final String STREAM = "SendStreamingMessage";
    public static final String GET = "GetTask";
    public static final String LIST = "ListTasks";
    public static final String CANCEL = "CancelTask";
    public static final String SUBSCRIBE = "SubscribeToTask";

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL = -32603;
    public static final int TASK_NOT_FOUND = -32001;
    public static final int TASK_NOT_CANCELABLE = -32002;
    public static final int PUSH_NOT_SUPPORTED = -32003;
    public static final int UNSUPPORTED = -32004;
    public static final int CONTENT_TYPE = -32005;
    public static final int VERSION_NOT_SUPPORTED = -32009;

    private A2aWire() { }

    /** {@code completed} → {@code TASK_STATE_COMPLETED}. */
    public static String state(String state) {
        return "TASK_STATE_" + state.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /** {@code TASK_STATE_INPUT_REQUIRED} → {@code input-required}; what a client sends in a filter. */
    public static String stateName(String wire) {
        return wire.replaceFirst("^TASK_STATE_", "").toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The text of a message's parts: text parts as they are, data parts as JSON, a file by its name; one per line. */
    public static String text(JsonNode message) {
        List<String> out = new ArrayList<>();
        for (JsonNode part : message.path("parts")) {
            if (part.path("text").isTextual()) out.add(part.get("text").asText());
            else if (part.has("data")) out.add(part.get("data").toString());
            else if (part.has("url") || part.has("raw")) out.add("[a file: " + part.path("filename").asText("unnamed") + "]");
        }
        return String.join("\n", out);
    }

    /** An agent message with {@code text}, in task {@code t}. */
    public static ObjectNode agentMessage(A2aTasksDao.Task t, String suffix, String text) {
        ObjectNode m = JSON.createObjectNode();
        m.put("messageId", t.id() + "-" + suffix).put("contextId", t.contextId()).put("taskId", t.id())
                .put("role", "ROLE_AGENT");
        m.putArray("parts").addObject().put("text", text);
        return m;
    }

    /** The task's status: its state as shown, the answer or the reason as the agent's message, the time it moved. */
    public static ObjectNode status(A2aTasksDao.Task t) {
        ObjectNode s = JSON.createObjectNode();
        s.put("state", state(t.shownState()));
        if (!t.answer().isEmpty()) s.set("message", agentMessage(t, "answer", t.answer()));
        else if (!t.reason().isEmpty()) s.set("message", agentMessage(t, "status", t.reason()));
        s.put("timestamp", t.updatedAt());
        return s;
    }

    /** The answer as the task's one artifact, when there is one. */
    public static ObjectNode artifact(A2aTasksDao.Task t) {
        ObjectNode a = JSON.createObjectNode();
        a.put("artifactId", t.id() + "-answer").put("name", "answer");
        a.putArray("parts").addObject().put("text", t.answer());
        return a;
    }

    /** The whole task; {@code history} the caller's message (0: left out), artifacts only when asked for. */
    public static ObjectNode task(A2aTasksDao.Task t, int history, boolean artifacts) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", t.id()).put("contextId", t.contextId());
        o.set("status", status(t));
        if (artifacts && !t.answer().isEmpty()) o.putArray("artifacts").add(artifact(t));
        if (t.ended()) o.putObject("metadata").put("tokens", t.tokens());   // what the task cost the agent
        if (history > 0) {
            ArrayNode h = o.putArray("history");
            try {
                JsonNode m = JSON.readTree(t.message());
                if (m.isObject()) h.add(((ObjectNode) m).put("taskId", t.id()).put("contextId", t.contextId()));
            } catch (com.fasterxml.jackson.core.JsonProcessingException unreadable) {
                h.removeAll();   // stored by us as JSON: never unreadable, but a task without history is no lie
            }
        }
        return o;
    }

    /** A status update event of task {@code t}. */
    public static ObjectNode statusUpdate(A2aTasksDao.Task t) {
        ObjectNode u = JSON.createObjectNode();
        ObjectNode e = u.putObject("statusUpdate");
        e.put("taskId", t.id()).put("contextId", t.contextId());
        e.set("status", status(t));
        return u;
    }

    /** The answer as an artifact update event. */
    public static ObjectNode artifactUpdate(A2aTasksDao.Task t) {
        ObjectNode u = JSON.createObjectNode();
        ObjectNode e = u.putObject("artifactUpdate");
        e.put("taskId", t.id()).put("contextId", t.contextId());
        e.set("artifact", artifact(t));
        return u;
    }

    /** A JSON-RPC result. */
    public static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode r = JSON.createObjectNode();
        r.put("jsonrpc", "2.0");
        r.set("id", id);
        r.set("result", result);
        return r;
    }

    /** A JSON-RPC error with the protocol's ErrorInfo for the A2A codes. */
    public static ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode r = JSON.createObjectNode();
        r.put("jsonrpc", "2.0");
        r.set("id", id);
        ObjectNode e = r.putObject("error");
        e.put("code", code).put("message", message);
        String reason = reason(code);
        if (!reason.isEmpty()) {
            e.putArray("data").addObject().put("@type", "type.googleapis.com/google.rpc.ErrorInfo").put("reason", reason)
                    .put("domain", "a2a-protocol.org").putObject("metadata");
        }
        return r;
    }

    private static String reason(int code) {
        return switch (code) {
            case TASK_NOT_FOUND -> "TASK_NOT_FOUND";
            case TASK_NOT_CANCELABLE -> "TASK_NOT_CANCELABLE";
            case PUSH_NOT_SUPPORTED -> "PUSH_NOTIFICATION_NOT_SUPPORTED";
            case UNSUPPORTED -> "UNSUPPORTED_OPERATION";
            case CONTENT_TYPE -> "CONTENT_TYPE_NOT_SUPPORTED";
            case VERSION_NOT_SUPPORTED -> "VERSION_NOT_SUPPORTED";
            default -> "";
        };
    }
}
