package dev.hmpagent.llm.ollama;

/**
 * Collects a reply object by object: the text so far, the last model and done_reason seen, and the counts of the
 * final object. Not thread-safe; one per call.
 */
final class ReplyAccumulator {
    /** The finish reason of a reply this side cut at {@link #maxChars}: like the server's "length". */
    static final String CUT = "length";

    private final int maxChars;
    private final StringBuilder text = new StringBuilder();
    private final java.util.List<dev.hmpagent.llm.ToolCall> toolCalls = new java.util.ArrayList<>();
    private String model = "";
    private String doneReason = "";
    private ServerCounts counts;
    private boolean done;
    private boolean cut;
    private boolean lineCut;

    /** @param maxChars the longest reply kept; a longer one is cut there and nothing more is read */
    ReplyAccumulator(int maxChars) {
        if (maxChars <= 0) throw new IllegalArgumentException("maxChars must be > 0");
        this.maxChars = maxChars;
    }

    /** Applies one object; returns its text delta, empty when it carried none. */
    String accept(OllamaChunk chunk) {
        if (!chunk.model().isEmpty()) model = chunk.model();
        if (!chunk.doneReason().isEmpty()) doneReason = chunk.doneReason();
        if (chunk.counts() != null) counts = chunk.counts();
        if (chunk.done()) done = true;
        toolCalls.addAll(chunk.toolCalls());
        String delta = chunk.text();
        if (text.length() + (long) delta.length() > maxChars) {
            // a runaway reply is cut here, never held whole: what came so far is the reply
            delta = delta.substring(0, maxChars - text.length());
            cut = true;
        }
        text.append(delta);
        return delta;
    }

    /**
     * Ends the reply at a line longer than 1 MB, after {@code fit}, the part of it that fit read as a chunk (null
     * when that part could not be read); returns its delta. The finish reason is then
     * {@link dev.hmpagent.llm.wire.Bodies#EVENT_CUT}.
     */
    String acceptCut(OllamaChunk fit) {
        String delta = fit == null ? "" : accept(fit);
        lineCut = true;
        return delta;
    }

    /** Whether nothing more needs reading: the server said done, or the reply was cut. */
    boolean finished() { return done || cut || lineCut; }

    String text() { return text.toString(); }

    /** The tool calls so far, in order. */
    java.util.List<dev.hmpagent.llm.ToolCall> toolCalls() { return java.util.List.copyOf(toolCalls); }

    String model() { return model; }

    /** done_reason as given ("stop", "length", …), {@link #CUT} when cut here, empty when the server gave none. */
    String finishReason() { return lineCut ? dev.hmpagent.llm.wire.Bodies.EVENT_CUT : cut ? CUT : doneReason; }

    /** The counts of the final object, null when none came. */
    ServerCounts counts() { return counts; }
}
