package dev.hmpagent.llm.wire;

import java.util.ArrayList;
import java.util.List;

/**
 * What every provider's stream accumulator holds of a reply so far: the text, the last model and finish reason seen,
 * the usage of the last piece that carried one, and the pieces of tool calls in order of arrival. It keeps the one
 * rule of a runaway reply: text or tool arguments beyond {@code maxChars} are not held, the reply is cut there with
 * finish reason {@link Bodies#CUT} (a too-large event ends it with {@link Bodies#EVENT_CUT}) and nothing more is to be
 * read. The providers keep only their wire format: which piece says what. Not thread-safe; one per call.
 *
 * @param <U> the provider's usage, as its wire gives it
 */
public final class StreamState<U> {
    private final int maxChars;
    private final StringBuilder text = new StringBuilder();
    private final List<ToolCallPart> parts = new ArrayList<>();
    private long toolChars;
    private String model = "";
    private String finishReason = "";
    private U usage;
    private boolean cut;

    /** @param maxChars the longest reply kept; a longer one is cut there and the stream is not read further */
    public StreamState(int maxChars) {
        if (maxChars <= 0) throw new IllegalArgumentException("maxChars must be > 0");
        this.maxChars = maxChars;
    }

    /**
     * Takes what one piece carried: a model, a finish reason and a usage each replace the last unless absent (empty,
     * null); tool call pieces are kept in order. Tool arguments beyond {@code maxChars} cut the reply.
     */
    public void take(String model, String finishReason, U usage, List<ToolCallPart> tools) {
        if (!model.isEmpty()) this.model = model;
        if (!finishReason.isEmpty()) this.finishReason = finishReason;
        if (usage != null) this.usage = usage;
        for (ToolCallPart part : tools) {
            parts.add(part);
            toolChars += part.arguments().length();
        }
        // runaway arguments are not held either: the reply ends here, as a cut one
        if (toolChars > maxChars) cut(Bodies.CUT);
    }

    /** Appends a piece of text, what of it fits within {@code maxChars}; returns what was kept. */
    public String append(String delta) {
        if (text.length() + (long) delta.length() > maxChars) {
            // a runaway reply is cut here, never held whole: what came so far is the reply
            delta = delta.substring(0, fitting(delta, maxChars - text.length()));
            cut(Bodies.CUT);
        }
        text.append(delta);
        return delta;
    }

    /** Ends the reply at a too-large event: finish reason {@link Bodies#EVENT_CUT}, nothing more to read. */
    public void endCut() {
        cut(Bodies.EVENT_CUT);
    }

    private void cut(String reason) {
        finishReason = reason;
        cut = true;
    }

    /**
     * How much of {@code text} to keep when only {@code max} characters may be: {@code max}, or one less when the cut
     * would fall between the halves of a surrogate pair (a lone half is no character).
     */
    public static int fitting(String text, int max) {
        if (text.length() <= max) return text.length();
        return max > 0 && Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
    }

    /** Whether the reply was cut here, at {@code maxChars} or at a too-large event. */
    public boolean cut() { return cut; }

    public String text() { return text.toString(); }

    /** The last model named, empty when none was. */
    public String model() { return model; }

    /** The last finish reason given, or the one of a cut; empty when none. */
    public String finishReason() { return finishReason; }

    /** The usage of the last piece that carried one, null when none did. */
    public U usage() { return usage; }

    /** The pieces of tool calls so far, in order of arrival. */
    public List<ToolCallPart> parts() { return List.copyOf(parts); }
}
