package dev.hmpagent.commands;

import dev.hmpagent.text.Text;
import java.util.Objects;

/**
 * Something in the command block that could not be turned into a command.
 *
 * @param position 1-based position of the offending command in the block, or 0 when the problem does not
 *                 belong to one command (stray text, an unclosed array)
 * @param message  one line saying what is wrong and what to do about it
 * @param excerpt  the offending text on one line, at most {@value #MAX_EXCERPT} characters
 */
public record CommandParseError(int position, String message, String excerpt) {

    /** Longest excerpt kept. */
    public static final int MAX_EXCERPT = 120;


    public CommandParseError {
        if (position < 0) throw new IllegalArgumentException("position must be >= 0: " + position);
        message = oneLine(Objects.requireNonNull(message, "message"));
        excerpt = excerptOf(Objects.requireNonNull(excerpt, "excerpt"));
    }

    /** {@code text} with every run of whitespace (line breaks included) turned into one space, trimmed. */
    static String oneLine(String text) {
        return Text.collapse(text);
    }

    /** {@code text} on one line, cut to {@link #MAX_EXCERPT} characters with a trailing "..." when longer. */
    static String excerptOf(String text) {
        String line = oneLine(text);
        if (line.length() <= MAX_EXCERPT) return line;
        int cut = MAX_EXCERPT - 3;
        if (Character.isHighSurrogate(line.charAt(cut - 1))) cut--;
        return line.substring(0, cut) + "...";
    }
}
