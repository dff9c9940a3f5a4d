package dev.hmpagent.llm.anthropic;

import dev.hmpagent.llm.wire.EventStream;
import dev.hmpagent.llm.wire.ReplyException;
import dev.hmpagent.llm.wire.ToolCallPart;

import java.util.Objects;

/**
 * Collects a streamed reply event by event: the text so far, the model, the finish reason and the usage (message_start's
 * counts, updated by message_delta's cumulative ones). Whole when message_stop came, or when the text reached
 * {@code maxChars} and was cut there. Not thread-safe; one per call.
 */
final class AnthropicStream implements EventStream.Events {
    /** The finish reason of a reply this side cut at {@code maxChars}: like a server's "length". */
    static final String CUT = dev.hmpagent.llm.wire.Bodies.CUT;

    private final AnthropicWire wire;
    private final int maxChars;
    private final StringBuilder text = new StringBuilder();
    /** The pieces of tool calls in order of arrival, and their input's length so far. */
    private final java.util.List<ToolCallPart> parts = new java.util.ArrayList<>();
    private long toolChars;
    private String model = "";
    private String finishReason = "";
    private ServerUsage usage;
    private boolean outputFinal;
    private boolean stopped;
    private boolean cut;

    /** @param maxChars the longest reply kept; a longer one is cut there and the stream is not read further */
    AnthropicStream(AnthropicWire wire, int maxChars) {
        this.wire = Objects.requireNonNull(wire, "wire");
        if (maxChars <= 0) throw new IllegalArgumentException("maxChars must be > 0");
        this.maxChars = maxChars;
    }

    /**
     * Applies one event's data; returns its reply text, empty when it carried none.
     *
     * @throws ServerError when the event is the server's {@code error} event
     */
    @Override
    public String accept(String data) throws ReplyException, ServerError {
        if (data.isBlank()) return "";
        AnthropicWire.Event event = wire.parseEvent(data.strip(), usage);
        switch (event.type()) {
            case "message_stop" -> stopped = true;
            case "message_delta" -> outputFinal = outputFinal || event.usage() != null;
            default -> { }
        }
        if (!event.model().isEmpty()) model = event.model();
        if (!event.finishReason().isEmpty()) finishReason = event.finishReason();
        if (event.usage() != null) usage = event.usage();
        for (ToolCallPart part : event.tools()) {
            parts.add(part);
            toolChars += part.arguments().length();
        }
        if (toolChars > maxChars) {
            // runaway input is not held either: the reply ends here, as a cut one
            finishReason = CUT;
            cut = true;
        }
        String delta = event.text();
        if (text.length() + delta.length() > maxChars) {
            // a runaway reply is cut here, never held whole: what came so far is the reply
            int end = maxChars - text.length();
            if (end > 0 && Character.isHighSurrogate(delta.charAt(end - 1))) end--;
            delta = delta.substring(0, end);
            finishReason = CUT;
            cut = true;
        }
        text.append(delta);
        return delta;
    }

    @Override
    public void endCut() {
        finishReason = dev.hmpagent.llm.wire.Bodies.EVENT_CUT;
        cut = true;
    }

    /** Whether nothing more is to be read: message_stop came, or the text was cut. */
    @Override
    public boolean done() { return stopped || cut; }

    /** The text so far. */
    String text() { return text.toString(); }

    /** What has arrived so far, as a reply; its output count is final only after message_delta and not when cut. */
    Reply reply() {
        return new Reply(text.toString(), model, finishReason, usage, outputFinal && !cut, parts);
    }
}
