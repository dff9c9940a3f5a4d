package dev.hmpagent.repl;

import java.util.regex.Pattern;

/**
 * What a person typed, made fit to become a message: on a dumb terminal the keys that move the cursor arrive as
 * escape sequences (an Up arrow is {@code ESC [ A}); they and every other control character except newline and tab
 * are removed, so the LLM never receives {@code ^[[A}.
 */
final class TypedText {
    /** CSI (ESC [ … final byte), OSC (ESC ] … BEL or ESC \), SS3 and other two-byte escapes, 8-bit CSI. */
    private static final Pattern ESCAPES = Pattern.compile(
            "\u001b\\[[0-?]*[ -/]*[@-~]|\u001b\\][^\u0007\u001b]*(?:\u0007|\u001b\\\\)?|\u001b[NO].|\u001b.?|\u009b[0-?]*[ -/]*[@-~]");
    private static final Pattern CONTROL = Pattern.compile("[\\p{Cc}&&[^\\n\\t]]");

    private TypedText() { }

    static String clean(String line) {
        return CONTROL.matcher(ESCAPES.matcher(line).replaceAll("")).replaceAll("");
    }
}
