package dev.hmpagent.llm.wire;

/**
 * Closes a JSON text that was cut short, so that the part of a too-large stream event that fits can still be
 * read: a string cut open is closed (an escape cut in half dropped), a dangling {@code ,} dropped, a
 * {@code :} given {@code null}, and every bracket still open closed in order. The result is JSON when the cut
 * fell inside a value or between members, which is where a long reply's text lies; it may still not parse
 * (a cut inside a key), and the caller then keeps nothing of that event. One pass, linear in the text.
 */
public final class TruncatedJson {
    private TruncatedJson() { }

    /** {@code prefix} with what it lacks appended; unchanged when nothing is open. */
    public static String close(String prefix) {
        StringBuilder closers = new StringBuilder();
        boolean inString = false;
        boolean escaped = false;
        int escapeStart = -1;
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (inString) {
                if (escaped) {
                    escaped = false;
                } else if (c == '\\') {
                    escaped = true;
                    escapeStart = i;
                } else if (c == '"') {
                    inString = false;
                }
                continue;
            }
            switch (c) {
                case '"' -> inString = true;
                case '{' -> closers.append('}');
                case '[' -> closers.append(']');
                case '}', ']' -> {
                    if (closers.length() > 0) closers.setLength(closers.length() - 1);
                }
                default -> { }
            }
        }
        StringBuilder out = new StringBuilder(prefix.length() + closers.length() + 6);
        out.append(prefix);
        if (inString) {
            int keep = out.length();
            if (escaped) keep = escapeStart;
            else if (escapeStart >= 0 && escapeStart + 6 > keep && keep - escapeStart >= 2
                    && prefix.charAt(escapeStart + 1) == 'u') keep = escapeStart;   // a \\u escape cut short
            if (keep > 0 && Character.isHighSurrogate(out.charAt(keep - 1))) keep--;
            out.setLength(keep);
            out.append('"');
        } else {
            int end = out.length();
            while (end > 0 && Character.isWhitespace(out.charAt(end - 1))) end--;
            out.setLength(end);
            if (end > 0 && out.charAt(end - 1) == ',') out.setLength(end - 1);
            else if (end > 0 && out.charAt(end - 1) == ':') out.append("null");
        }
        return out.append(closers.reverse()).toString();
    }
}
