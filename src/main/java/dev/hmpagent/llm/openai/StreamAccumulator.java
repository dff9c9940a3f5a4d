package dev.hmpagent.llm.openai;

import dev.hmpagent.llm.wire.EventStream;
import dev.hmpagent.llm.wire.ReplyException;
import dev.hmpagent.llm.wire.ToolCallPart;
import java.util.Objects;

/**
 * Collects a streamed reply chunk by chunk: the text so far, the last model and finish_reason
 * seen, and the usage from whichever chunk carries it. Not thread-safe; one per call.
 */
final class StreamAccumulator implements EventStream.Events {
    static final String DONE = "[DONE]";
    /** The finish_reason of a reply this side cut at {@link #maxChars}: like a server's "length". */
    static final String CUT = dev.hmpagent.llm.wire.Bodies.CUT;

    private final OpenAiWire wire;
    private final int maxChars;
    private final StringBuilder text = new StringBuilder();
    /** The pieces of tool calls in order of arrival, and their arguments' length so far. */
    private final java.util.List<ToolCallPart> parts = new java.util.ArrayList<>();
    private long toolChars;
    private String model = "";
    private String finishReason = "";
    private ServerUsage usage;
    private boolean done;

    /** @param maxChars the longest reply kept; a longer one is cut there and the stream is not read further */
    StreamAccumulator(OpenAiWire wire, int maxChars) {
        this.wire = Objects.requireNonNull(wire, "wire");
        if (maxChars <= 0) throw new IllegalArgumentException("maxChars must be > 0");
        this.maxChars = maxChars;
    }

    /** Applies one event's data; returns its text delta, empty when it carried none. */
    @Override
    public String accept(String data) throws ReplyException {
        String trimmed = data.strip();
        if (trimmed.equals(DONE)) {
            done = true;
            return "";
        }
        if (trimmed.isEmpty()) return "";
        Reply chunk = wire.parseChunk(trimmed);
        if (!chunk.model().isEmpty()) model = chunk.model();
        if (!chunk.finishReason().isEmpty()) finishReason = chunk.finishReason();
        if (chunk.usage() != null) usage = chunk.usage();
        for (ToolCallPart part : chunk.toolCalls()) {
            parts.add(part);
            toolChars += part.arguments().length();
        }
        String delta = chunk.text();
        if (toolChars > maxChars) {
            // runaway arguments are not held either: the reply ends here, as a cut one
            finishReason = CUT;
            done = true;
        }
        if (text.length() + delta.length() > maxChars) {
            // a runaway reply is cut here, never held whole: what came so far is the reply
            delta = delta.substring(0, maxChars - text.length());
            finishReason = CUT;
            done = true;
        }
        text.append(delta);
        return delta;
    }

    @Override
    public void endCut() {
        finishReason = dev.hmpagent.llm.wire.Bodies.EVENT_CUT;
        done = true;
    }

    @Override
    public boolean done() { return done; }

    /**
     * Whether the reply is whole: the server sent [DONE] or a finish_reason (some servers omit
     * [DONE]). A stream that ends with neither was cut off.
     */
    boolean complete() { return done || !finishReason.isEmpty(); }

    /** What has arrived so far, as a reply. */
    Reply reply() {
        return new Reply(text.toString(), model, finishReason, usage, parts);
    }
}
