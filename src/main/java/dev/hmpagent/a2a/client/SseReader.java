package dev.hmpagent.a2a.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.Objects;

/**
 * Server-sent events as A2A streams them: {@code data:} lines (joined by newlines) up to a blank line make one event,
 * {@code event:} names it, comments ({@code :}) and other fields are skipped; lines may end in CRLF or LF.
 */
final class SseReader {
    /** One event: its name ({@code message} when none was given) and its data. */
    record Event(String name, String data) { }

    private final BufferedReader in;

    SseReader(BufferedReader in) {
        this.in = Objects.requireNonNull(in, "in");
    }

    /** The next event, or null at the end of the stream. */
    Event next() throws IOException {
        StringBuilder data = null;
        String name = "message";
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isEmpty()) {
                if (data != null) return new Event(name, data.toString());
                name = "message";
                continue;
            }
            if (line.startsWith(":")) continue;
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) value = value.substring(1);
            if (field.equals("data")) {
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            } else if (field.equals("event")) {
                name = value;
            }
        }
        return data == null ? null : new Event(name, data.toString());
    }
}
