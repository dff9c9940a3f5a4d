package dev.hmpagent.llm.anthropic;

import dev.hmpagent.llm.wire.Bodies;
import dev.hmpagent.llm.wire.EventStream;
import dev.hmpagent.llm.wire.ReplyException;
import dev.hmpagent.llm.wire.StreamState;

import java.util.Objects;

/**
 * Collects a streamed reply event by event into a {@link StreamState}: the text so far, the model, the finish reason
 * and the usage (message_start's counts, updated by message_delta's cumulative ones). Whole when message_stop came,
 * or when the text reached {@code maxChars} and was cut there. Not thread-safe; one per call.
 */
final class AnthropicStream implements EventStream.Events {
    /** The finish reason of a reply this side cut at {@code maxChars}: like a server's "length". */
    static final String CUT = Bodies.CUT;

    private final AnthropicWire wire;
    private final StreamState<ServerUsage> state;
    private boolean outputFinal;
    private boolean stopped;

    /** @param maxChars the longest reply kept; a longer one is cut there and the stream is not read further */
    AnthropicStream(AnthropicWire wire, int maxChars) {
        this.wire = Objects.requireNonNull(wire, "wire");
        this.state = new StreamState<>(maxChars);
    }

    /**
     * Applies one event's data; returns its reply text, empty when it carried none.
     *
     * @throws ServerError when the event is the server's {@code error} event
     */
    @Override
    public String accept(String data) throws ReplyException, ServerError {
        if (data.isBlank()) return "";
        AnthropicWire.Event event = wire.parseEvent(data.strip(), state.usage());
        switch (event.type()) {
            case "message_stop" -> stopped = true;
            case "message_delta" -> outputFinal = outputFinal || event.usage() != null;
            default -> { }
        }
        state.take(event.model(), event.finishReason(), event.usage(), event.tools());
        return state.append(event.text());
    }

    @Override
    public void endCut() { state.endCut(); }

    /** Whether nothing more is to be read: message_stop came, or the text was cut. */
    @Override
    public boolean done() { return stopped || state.cut(); }

    /** The text so far. */
    String text() { return state.text(); }

    /** What has arrived so far, as a reply; its output count is final only after message_delta and not when cut. */
    Reply reply() {
        return new Reply(state.text(), state.model(), state.finishReason(), state.usage(), outputFinal && !state.cut(),
                state.parts());
    }
}
