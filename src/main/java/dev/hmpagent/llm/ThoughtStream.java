package dev.hmpagent.llm;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a person sees of a streaming JSON reply ({@code commands = "json"}): the text of its {@code "thought"}, decoded
 * as it arrives, not the JSON around it; a reply that does not start with {@code {} (the server ignored the schema)
 * is passed on as it comes. Each delta is read once, so a long reply costs no more than its length. What it decoded
 * is also the thought of a reply cut before its JSON closed (a cancel, a length limit), see {@link JsonReply}.
 */
final class ThoughtStream implements StreamListener {
    private static final Pattern KEY = Pattern.compile("\"thought\"\\s*:\\s*\"");
    /** Characters kept behind the end of the raw text while the key is looked for (the key may straddle deltas). */
    private static final int KEY_TAIL = 32;

    private enum Phase { START, RAW, SEEK, THOUGHT, DONE }

    private final StreamListener to;
    private Phase phase = Phase.START;
    /** The raw text not yet searched for the key (at most a short tail plus the last delta). */
    private final StringBuilder pending = new StringBuilder();
    private final StringBuilder thought = new StringBuilder();
    /** An escape begun in one delta and ended in the next: a backslash, or a backslash, u and up to three hex digits. */
    private final StringBuilder escape = new StringBuilder();

    ThoughtStream(StreamListener to) {
        this.to = Objects.requireNonNull(to, "to");
    }

    @Override
    public void onDelta(String delta) {
        if (phase == Phase.RAW) {
            to.onDelta(delta);
            return;
        }
        if (phase == Phase.START) {
            pending.append(delta);
            String started = pending.toString().stripLeading();
            if (started.isEmpty()) return;
            if (started.charAt(0) != '{') {
                phase = Phase.RAW;
                to.onDelta(pending.toString());
                pending.setLength(0);
                return;
            }
            phase = Phase.SEEK;
            delta = pending.toString();
            pending.setLength(0);
        }
        if (phase == Phase.SEEK) delta = seek(delta);
        if (phase == Phase.THOUGHT) decode(delta);
    }

    /** Whether the reply began as a JSON object. */
    boolean json() { return phase != Phase.START && phase != Phase.RAW; }

    /** The thought decoded so far ("" before its key came). */
    String thought() { return thought.toString(); }

    /** The text after the thought's opening quote when the key is found in it, else "" (and the tail is kept). */
    private String seek(String delta) {
        pending.append(delta);
        Matcher m = KEY.matcher(pending);
        if (m.find()) {
            String rest = pending.substring(m.end());
            pending.setLength(0);
            phase = Phase.THOUGHT;
            return rest;
        }
        if (pending.length() > KEY_TAIL) pending.delete(0, pending.length() - KEY_TAIL);
        return "";
    }

    private void decode(String delta) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < delta.length() && phase == Phase.THOUGHT; i++) {
            char c = delta.charAt(i);
            if (escape.length() > 0) {
                escaped(c, out);
            } else if (c == '\\') {
                escape.append(c);
            } else if (c == '"') {
                phase = Phase.DONE;
            } else {
                out.append(c);
            }
        }
        thought.append(out);
        if (!out.isEmpty()) to.onDelta(out.toString());
    }

    /** One more character of an escape: the character it stands for when it ends. */
    private void escaped(char c, StringBuilder out) {
        escape.append(c);
        if (escape.length() == 2 && c != 'u') {
            out.append(switch (c) {
                case 'n' -> '\n';
                case 't' -> '\t';
                case 'r' -> '\r';
                case 'b' -> '\b';
                case 'f' -> '\f';
                default -> c;   // \" \\ \/
            });
            escape.setLength(0);
        } else if (escape.length() == 6) {
            try {
                out.append((char) Integer.parseInt(escape.substring(2), 16));
            } catch (NumberFormatException e) {
                out.append(escape);   // not JSON: shown as it came
            }
            escape.setLength(0);
        }
    }
}
