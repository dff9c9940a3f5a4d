package dev.hmpagent.llm.openai;

/**
 * Turns server-sent-event lines into event data, per the SSE rules that matter here:
 * {@code data:} lines accumulate (joined by newlines), a blank line ends the event,
 * {@code :} lines are comments, other fields ({@code event}, {@code id}, {@code retry}) are ignored.
 * Feed lines without their terminator. Not thread-safe; one per stream.
 */
final class SseEventParser {
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;

    /** Feeds one line; returns the data of the event this line completes, or null. */
    String line(String line) {
        if (line.isEmpty()) return dispatch();
        if (line.startsWith(":")) return null;
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        if (!field.equals("data")) return null;
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) value = value.substring(1);
        if (hasData) data.append('\n');
        data.append(value);
        hasData = true;
        return null;
    }

    /** At end of stream: the data of an event the server did not end with a blank line, or null. */
    String finish() {
        return dispatch();
    }

    private String dispatch() {
        if (!hasData) return null;
        String event = data.toString();
        data.setLength(0);
        hasData = false;
        return event;
    }
}
