package dev.hmpagent.llm.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.ToolSpec;
import dev.hmpagent.llm.wire.ReplyException;
import dev.hmpagent.llm.wire.ToolCallPart;
import dev.hmpagent.llm.wire.WireJson;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The JSON of Anthropic's Messages API: request bodies, whole replies, stream events and error bodies.
 *
 * <p>Requests: system messages, wherever they stand, become the top-level {@code system} array of text blocks; the
 * others become {@code messages}, where consecutive messages of one role are merged into one message of several text
 * blocks (the API wants the roles to alternate) and a conversation that would not start with the user gets a short
 * user turn first (the API wants that too). Empty texts are left out (the API refuses empty text blocks). The
 * temperature is clamped to the API's 0..1 (ours goes to 2); penalties are not part of the API and are not sent.
 *
 * <p>Prompt caching: the last system block gets a {@code cache_control} breakpoint, and each message with a
 * {@link Message#stablePrefix()} hint gets one at the end of that prefix (its text split in blocks there; the whole
 * block when all of it is stable). A message's {@link Message#seams()} cut its growing part into one block a piece,
 * with a breakpoint at the last seam: the next tick's request, which repeats those pieces and adds one, has its own
 * breakpoint one block further, and the API, which looks back from a breakpoint over earlier block boundaries, finds
 * this request's cache entry there. In order, up to the API's {@value #MAX_BREAKPOINTS} breakpoints.
 */
final class AnthropicWire {
    /** The most cache breakpoints the API accepts in one request. */
    static final int MAX_BREAKPOINTS = 4;
    /** The user turn put before a conversation that would otherwise start with the assistant or be empty. */
    static final String OPENING = "(continue)";

    private final WireJson json = new WireJson();

    String requestBody(String model, LlmRequest request, boolean stream) {
        ObjectNode body = json.body(model, request);
        body.put("max_tokens", request.maxTokens());
        double temperature = request.temperature();
        if (!Double.isNaN(temperature)) body.put("temperature", Math.max(0.0, Math.min(1.0, temperature)));
        List<Message> system = new ArrayList<>();
        List<Turn> turns = turns(request.messages(), system);
        // the whole system prompt is the most stable prefix there is: its end is always a breakpoint
        Breakpoints breakpoints = new Breakpoints(system.isEmpty() ? MAX_BREAKPOINTS : MAX_BREAKPOINTS - 1);
        // the tools come first in the cached prefix and stay for the run: the last one is a breakpoint too
        if (!request.tools().isEmpty()) putTools(body, request.tools(), breakpoints.take());
        if (!system.isEmpty()) {
            ArrayNode blocks = body.putArray("system");
            for (Message m : system) addBlocks(blocks, m, breakpoints);
            ObjectNode last = (ObjectNode) blocks.get(blocks.size() - 1);
            if (last.has("cache_control")) breakpoints.giveBack();
            else markCached(last);
        }
        if (turns.isEmpty() || turns.get(0).role != Message.Role.USER) {
            turns.add(0, new Turn(Message.Role.USER, Message.user(OPENING)));
        }
        ArrayNode messages = body.putArray("messages");
        for (Turn turn : turns) {
            ObjectNode message = messages.addObject();
            message.put("role", role(turn.role));
            ArrayNode content = message.putArray("content");
            for (Message m : turn.messages) addBlocks(content, m, breakpoints);
        }
        if (stream) body.put("stream", true);
        return json.write(body);
    }

    /** {@code "tools": [{name, description, input_schema}]}, the last marked for the prompt cache when {@code cached}. */
    private static void putTools(ObjectNode body, List<ToolSpec> tools, boolean cached) {
        ArrayNode array = body.putArray("tools");
        for (ToolSpec t : tools) {
            array.addObject().put("name", t.name()).put("description", t.description()).set("input_schema", t.schema());
        }
        if (cached) markCached((ObjectNode) array.get(array.size() - 1));
    }

    /** The conversation as alternating turns (a role's consecutive messages joined); system messages go to {@code system}. */
    private static List<Turn> turns(List<Message> messages, List<Message> system) {
        List<Turn> turns = new ArrayList<>();
        for (Message m : messages) {
            if (m.content().isEmpty()) continue;
            if (m.role() == Message.Role.SYSTEM) {
                system.add(m);
            } else if (!turns.isEmpty() && turns.get(turns.size() - 1).role == m.role()) {
                turns.get(turns.size() - 1).messages.add(m);
            } else {
                turns.add(new Turn(m.role(), m));
            }
        }
        return turns;
    }

    /**
     * One text block, or several: cut at the stable prefix with a breakpoint there, and at each seam with a breakpoint
     * at the last, while any are left. A cut never falls between the halves of a surrogate pair, and none is empty.
     */
    private void addBlocks(ArrayNode blocks, Message m, Breakpoints breakpoints) {
        String text = m.content();
        List<Integer> cuts = new ArrayList<>();
        List<Integer> marked = new ArrayList<>();
        int stable = pairSafe(text, m.stablePrefix());
        if (stable > 0) {
            cuts.add(stable);
            marked.add(stable);
        }
        for (int seam : m.seams()) {
            int cut = pairSafe(text, seam);
            if (cut > (cuts.isEmpty() ? 0 : cuts.get(cuts.size() - 1))) cuts.add(cut);
        }
        if (!m.seams().isEmpty() && cuts.size() > marked.size()) marked.add(cuts.get(cuts.size() - 1));
        int from = 0;
        for (int cut : cuts) {
            ObjectNode block = text(blocks, text.substring(from, cut));
            if (marked.contains(cut) && breakpoints.take()) markCached(block);
            from = cut;
        }
        if (from < text.length()) text(blocks, text.substring(from));
    }

    /** {@code at}, or one before it when it falls between the halves of a surrogate pair. */
    private static int pairSafe(String text, int at) {
        return at > 0 && at < text.length() && Character.isLowSurrogate(text.charAt(at)) ? at - 1 : at;
    }

    private static ObjectNode text(ArrayNode blocks, String text) {
        return blocks.addObject().put("type", "text").put("text", text);
    }

    private static void markCached(ObjectNode block) {
        block.putObject("cache_control").put("type", "ephemeral");
    }

    /** A whole (non-streamed) reply: its text blocks joined, the model, the stop reason and usage. */
    Reply parseMessage(String body) throws ReplyException, ServerError {
        JsonNode root = json.object(body);
        throwIfError(root);
        JsonNode content = root.path("content");
        if (!content.isArray()) throw ReplyException.malformed("reply has no content array", null);
        StringBuilder text = new StringBuilder();
        List<ToolCallPart> tools = new ArrayList<>();
        for (JsonNode block : content) {
            String type = block.path("type").asText("");
            if (type.equals("text")) text.append(block.path("text").asText(""));
            if (type.equals("tool_use")) {
                tools.add(new ToolCallPart(tools.size(), block.path("id").asText(""), block.path("name").asText(""),
                        block.path("input").isMissingNode() ? "" : block.path("input").toString()));
            }
        }
        return new Reply(text.toString(), root.path("model").asText(""), finishReason(root.path("stop_reason")),
                usage(root.path("usage"), null), true, tools);
    }

    /**
     * One stream event's data. Each event names its type inside its data (as well as in the SSE {@code event:}
     * line, which is not read), so the data alone decides.
     *
     * @param usage the usage so far, which this event's counts update field by field
     * @throws ServerError for an {@code error} event
     */
    Event parseEvent(String data, ServerUsage usage) throws ReplyException, ServerError {
        JsonNode root = json.object(data);
        String type = root.path("type").asText("");
        return switch (type) {
            case "message_start" -> {
                JsonNode message = root.path("message");
                yield new Event(type, "", message.path("model").asText(""), "", usage(message.path("usage"), usage));
            }
            case "content_block_start" -> {
                JsonNode block = root.path("content_block");
                String kind = block.path("type").asText("");
                if (kind.equals("tool_use")) {
                    // its input comes in input_json_delta fragments; the start's own input is an empty object
                    yield new Event(type, "", "", "", null, List.of(new ToolCallPart(root.path("index").asInt(0),
                            block.path("id").asText(""), block.path("name").asText(""), "")));
                }
                yield new Event(type, kind.equals("text") ? block.path("text").asText("") : "", "", "", null);
            }
            case "content_block_delta" -> {
                JsonNode delta = root.path("delta");
                String kind = delta.path("type").asText("");
                if (kind.equals("input_json_delta")) {
                    yield new Event(type, "", "", "", null, List.of(new ToolCallPart(root.path("index").asInt(0), "",
                            "", delta.path("partial_json").asText(""))));
                }
                // thinking and signature deltas are not reply text
                yield new Event(type, kind.equals("text_delta") ? delta.path("text").asText("") : "", "", "", null);
            }
            case "message_delta" -> new Event(type, "", "", finishReason(root.path("delta").path("stop_reason")),
                    usage(root.path("usage"), usage));
            case "error" -> throw new ServerError(apiError(root));
            case "" -> throw ReplyException.malformed("an event without a type: " + excerpt(data), null);
            // message_stop, content_block_stop, ping, and types added later: nothing to take
            default -> new Event(type, "", "", "", null);
        };
    }

    /** The error of an error body, or null when the body is not Anthropic's error shape (a proxy's page). */
    ApiError error(String body) {
        JsonNode root = json.lenient(body);
        return root == null || !root.path("error").isObject() ? null : apiError(root);
    }

    private static ApiError apiError(JsonNode root) {
        JsonNode error = root.path("error");
        return new ApiError(error.path("type").asText(""), error.path("message").asText(""),
                error.path("details").path("error_code").asText(""));
    }

    /** Our finish reason for Anthropic's stop_reason: end_turn and stop_sequence are "stop", max_tokens "length". */
    static String finishReason(JsonNode stopReason) {
        String reason = stopReason.isTextual() ? stopReason.asText() : "";
        return switch (reason) {
            case "end_turn", "stop_sequence" -> "stop";
            case "max_tokens" -> "length";
            default -> reason;
        };
    }

    /** {@code usage} laid over {@code previous} field by field (message_delta repeats only what changed); null when none. */
    private static ServerUsage usage(JsonNode usage, ServerUsage previous) {
        if (!usage.isObject()) return null;
        ServerUsage base = previous == null ? ServerUsage.NONE : previous;
        return new ServerUsage(count(usage, "input_tokens", base.inputTokens()),
                count(usage, "cache_creation_input_tokens", base.cacheCreationTokens()),
                count(usage, "cache_read_input_tokens", base.cacheReadTokens()),
                count(usage, "output_tokens", base.outputTokens()));
    }

    private static int count(JsonNode usage, String field, int otherwise) {
        JsonNode n = usage.path(field);
        return n.isNumber() ? Math.max(0, n.asInt()) : otherwise;
    }

    private void throwIfError(JsonNode root) throws ServerError {
        if (root.path("type").asText("").equals("error") || root.path("error").isObject()) {
            throw new ServerError(apiError(root));
        }
    }

    private static String excerpt(String data) {
        String line = data.replaceAll("\\s+", " ").strip();
        return line.length() <= 80 ? line : line.substring(0, 79) + "…";
    }

    /** The Messages API name of a role; system messages never get here. */
    static String role(Message.Role role) {
        return switch (role) {
            case USER -> "user";
            case ASSISTANT -> "assistant";
            case SYSTEM -> throw new IllegalArgumentException("system messages go into the system field");
        };
    }

    /**
     * What one stream event carried: reply text (maybe empty), the model, a finish reason, the usage so far, and
     * pieces of tool calls.
     */
    record Event(String type, String text, String model, String finishReason, ServerUsage usage,
                 List<ToolCallPart> tools) {
        Event(String type, String text, String model, String finishReason, ServerUsage usage) {
            this(type, text, model, finishReason, usage, List.of());
        }
    }

    /** Consecutive messages of one role, sent as one message. */
    private static final class Turn {
        final Message.Role role;
        final List<Message> messages = new ArrayList<>();

        Turn(Message.Role role, Message first) {
            this.role = role;
            messages.add(first);
        }
    }

    /** The cache breakpoints still free in one request. */
    private static final class Breakpoints {
        private int left;

        Breakpoints(int left) {
            this.left = left;
        }

        void giveBack() {
            left++;
        }

        boolean take() {
            if (left == 0) return false;
            left--;
            return true;
        }
    }
}
