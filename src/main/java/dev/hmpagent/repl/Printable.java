package dev.hmpagent.repl;

import java.util.regex.Pattern;

/**
 * Text from the file (the model's words, a command's output, a person's note) made safe to show on a terminal:
 * escape sequences removed whole (a colour, a title change, a clipboard write: {@code ESC[31m}, {@code ESC]52;…BEL}),
 * then every other control character but newline and tab.
 */
public final class Printable {
    /** CSI (ESC [ or the C1 CSI) with its parameters and final byte; OSC, DCS, PM, APC, SOS up to BEL or ST; SS3 x; ESC x. */
    private static final Pattern ESCAPES = Pattern.compile(
            "(?:\\u001b\\[|\\u009b)[0-?]*[ -/]*[@-~]?"
                    + "|(?:\\u001b[\\]PX^_]|[\\u0090\\u0098\\u009d\\u009e\\u009f])[^\\u0007\\u001b\\u009c]*(?:\\u0007|\\u001b\\\\|\\u009c)?"
                    + "|\\u001b[NO][ -~]?"   // SS2/SS3 with the character they shift: a dumb terminal's arrow key
                    + "|\\u001b[ -/]*[0-~]?");
    private static final Pattern CONTROL = Pattern.compile("[\\p{Cc}&&[^\\n\\t]]");
    private static final Pattern SPACES = Pattern.compile("\\s+");

    private Printable() { }

    /** {@code s} without escape sequences and control characters other than newline and tab. */
    public static String text(String s) {
        if (s == null) return "";
        return CONTROL.matcher(ESCAPES.matcher(s.replace("\r\n", "\n")).replaceAll("")).replaceAll("");
    }

    /**
     * {@code s} printable on one line: every run of white space (newlines included) one space, cut at {@code max}
     * characters with "…" (never inside a surrogate pair).
     */
    public static String oneLine(String s, int max) {
        if (max < 1) throw new IllegalArgumentException("max must be positive: " + max);
        String line = SPACES.matcher(text(s)).replaceAll(" ").strip();
        if (line.length() <= max) return line;
        int cut = max - 1;
        if (cut > 0 && Character.isHighSurrogate(line.charAt(cut - 1))) cut--;
        return line.substring(0, cut).stripTrailing() + "…";
    }
}
