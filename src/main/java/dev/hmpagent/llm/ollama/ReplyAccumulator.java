package dev.hmpagent.llm.ollama;

import dev.hmpagent.llm.ToolCall;
import dev.hmpagent.llm.wire.StreamState;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects a reply object by object into a {@link StreamState}: the text so far, the last model and done_reason seen,
 * and the counts of the final object; Ollama's tool calls come whole. Not thread-safe; one per call.
 */
final class ReplyAccumulator {
    /** The finish reason of a reply this side cut at {@code maxChars}: like the server's "length". */
    static final String CUT = dev.hmpagent.llm.wire.Bodies.CUT;

    private final StreamState<ServerCounts> state;
    private final List<ToolCall> toolCalls = new ArrayList<>();
    private boolean done;

    /** @param maxChars the longest reply kept; a longer one is cut there and nothing more is read */
    ReplyAccumulator(int maxChars) {
        this.state = new StreamState<>(maxChars);
    }

    /** Applies one object; returns its text delta, empty when it carried none. */
    String accept(OllamaChunk chunk) {
        state.take(chunk.model(), chunk.doneReason(), chunk.counts(), List.of());
        if (chunk.done()) done = true;
        toolCalls.addAll(chunk.toolCalls());
        return state.append(chunk.text());
    }

    /**
     * Ends the reply at a line longer than 1 MB, after {@code fit}, the part of it that fit read as a chunk (null
     * when that part could not be read); returns its delta. The finish reason is then
     * {@link dev.hmpagent.llm.wire.Bodies#EVENT_CUT}.
     */
    String acceptCut(OllamaChunk fit) {
        String delta = fit == null ? "" : accept(fit);
        state.endCut();
        return delta;
    }

    /** Whether nothing more needs reading: the server said done, or the reply was cut. */
    boolean finished() { return done || state.cut(); }

    String text() { return state.text(); }

    /** The tool calls so far, in order. */
    List<ToolCall> toolCalls() { return List.copyOf(toolCalls); }

    String model() { return state.model(); }

    /** done_reason as given ("stop", "length", …), {@link #CUT} when cut here, empty when the server gave none. */
    String finishReason() { return state.finishReason(); }

    /** The counts of the final object, null when none came. */
    ServerCounts counts() { return state.usage(); }
}
