package dev.hmpagent.llm.wire;

import dev.hmpagent.llm.StreamListener;
import java.io.IOException;
import okio.BufferedSource;

/** A body of server-sent events read into a provider's accumulator, each new piece of text told to the listener. */
public final class EventStream {
    private EventStream() { }

    /** What a provider makes of its events' data. */
    public interface Events {
        /** Whether the reply is over (its last event came, or it was cut). */
        boolean done();

        /** One event's data; returns the new text ("" for none). */
        String accept(String data) throws IOException;

        /** Ends the reply at a too-large event: finish reason {@link Bodies#EVENT_CUT}, nothing more to read. */
        void endCut();

        /**
         * Applies the part of a too-large event that fit ({@code data}, null when none): its text is kept when it can
         * be read, and the reply ends there. Returns the new text.
         */
        default String acceptCut(String data) throws IOException {
            String delta = "";
            if (data != null) {
                try {
                    delta = accept(TruncatedJson.close(data.strip()));
                } catch (ReplyException unreadable) {
                    if (!unreadable.malformed()) throw unreadable;   // the server's own error stays one
                }
            }
            endCut();
            return delta;
        }
    }

    /** Reads events until {@code events} is done or the body ends; the caller checks whether the reply was whole. */
    public static void read(BufferedSource source, Events events, StreamListener listener) throws IOException {
        SseEventParser sse = new SseEventParser();
        SseEventParser.Line line;
        while (!events.done() && (line = SseEventParser.nextLine(source)) != null) {
            String data = line.cut() ? sse.cutLine(line.text()) : sse.line(line.text());
            if (sse.cut()) deliver(events.acceptCut(data), listener);   // a too-large event: keep what fit, end there
            else if (data != null) deliver(events.accept(data), listener);
        }
        String rest = sse.finish();
        if (rest != null && !events.done()) deliver(events.accept(rest), listener);
    }

    /** Tells {@code listener} of {@code delta} unless it is empty. */
    public static void deliver(String delta, StreamListener listener) {
        if (!delta.isEmpty()) listener.onDelta(delta);
    }
}
