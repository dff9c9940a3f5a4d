package dev.hmpagent.llm.openai;

import dev.hmpagent.llm.wire.Bodies;
import dev.hmpagent.llm.wire.EventStream;
import dev.hmpagent.llm.wire.ReplyException;
import dev.hmpagent.llm.wire.StreamState;
import java.util.Objects;

/**
 * Collects a streamed reply chunk by chunk into a {@link StreamState}: the text so far, the last model and
 * finish_reason seen, and the usage from whichever chunk carries it. Not thread-safe; one per call.
 */
final class StreamAccumulator implements EventStream.Events {
    static final String DONE = "[DONE]";
    /** The finish_reason of a reply this side cut at {@code maxChars}: like a server's "length". */
    static final String CUT = Bodies.CUT;

    private final OpenAiWire wire;
    private final StreamState<ServerUsage> state;
    private boolean doneSent;

    /** @param maxChars the longest reply kept; a longer one is cut there and the stream is not read further */
    StreamAccumulator(OpenAiWire wire, int maxChars) {
        this.wire = Objects.requireNonNull(wire, "wire");
        this.state = new StreamState<>(maxChars);
    }

    /** Applies one event's data; returns its text delta, empty when it carried none. */
    @Override
    public String accept(String data) throws ReplyException {
        String trimmed = data.strip();
        if (trimmed.equals(DONE)) {
            doneSent = true;
            return "";
        }
        if (trimmed.isEmpty()) return "";
        Reply chunk = wire.parseChunk(trimmed);
        state.take(chunk.model(), chunk.finishReason(), chunk.usage(), chunk.toolCalls());
        return state.append(chunk.text());
    }

    @Override
    public void endCut() { state.endCut(); }

    /** Whether nothing more is to be read: [DONE] came, or the reply was cut. */
    @Override
    public boolean done() { return doneSent || state.cut(); }

    /**
     * Whether the reply is whole: the server sent [DONE] or a finish_reason (some servers omit
     * [DONE]). A stream that ends with neither was cut off.
     */
    boolean complete() { return done() || !state.finishReason().isEmpty(); }

    /** What has arrived so far, as a reply. */
    Reply reply() {
        return new Reply(state.text(), state.model(), state.finishReason(), state.usage(), state.parts());
    }
}
