package dev.hmpagent.commands;

import java.util.List;

/**
 * What a command block may hold around its JSON without it being an error, because models write it there:
 * comments, the tags some chat templates put around a tool call, markdown list bullets and inline code
 * ticks. {@link BlockSplitter} skips these where it would otherwise report stray text; it asks only at
 * positions outside strings and comments, so none of this is ever looked for inside a command.
 * <ul>
 * <li>A comment ({@code //} or {@code /* *}{@code /}, as {@link JsonLexer} reads them).</li>
 * <li>A tool-call tag, whatever its case: {@code <tool_call>} and {@code </tool_call>} (Hermes, Qwen 2.5,
 * Granite), {@code <function_call>} (Functionary), {@code <|tool_call|>} and {@code <|/tool_call|>} (Phi-4),
 * {@code [TOOL_CALLS]} (Mistral), {@code <|python_tag|>}, {@code <|eom_id|>} and {@code <|eot_id|>}
 * (Llama 3.1).</li>
 * <li>At the start of a line, a list bullet ({@code -}, {@code *}, {@code +}, {@code •}, or up to three
 * digits and {@code .} or {@code )}) followed by blanks and then a {@code {}, {@code [} or a backtick: the
 * items of a markdown list of commands.</li>
 * <li>One to three backticks right before a {@code {} or {@code [}, or right after a {@code }} or
 * {@code ]}: a command written as inline code.</li>
 * </ul>
 * Every check looks at a bounded number of characters.
 */
final class BlockNoise {

    private static final List<String> TAGS = List.of("<tool_call>", "</tool_call>", "<function_call>",
            "</function_call>", "<|tool_call|>", "<|/tool_call|>", "[TOOL_CALLS]", "<|python_tag|>", "<|eom_id|>",
            "<|eot_id|>");

    /** Most blanks read after a bullet. */
    private static final int MAX_BLANKS = 8;

    private final String s;
    private final Brackets brackets;

    BlockNoise(String s, Brackets brackets) {
        this.s = s;
        this.brackets = brackets;
    }

    /**
     * Index just past the noise that starts at {@code i}, or {@code i} when none does. {@code lineStart} says
     * whether only blanks stand between the last line break (or the start) and {@code i}.
     */
    int end(int i, boolean lineStart) {
        int comment = brackets.commentEnd(i);
        if (comment > i) return comment;
        for (String tag : TAGS) {
            if (s.regionMatches(true, i, tag, 0, tag.length())) return i + tag.length();
        }
        if (lineStart) {
            int bullet = bulletEnd(i);
            if (bullet > i) return bullet;
        }
        return ticksEnd(i);
    }

    private int bulletEnd(int i) {
        int k = i;
        char c = s.charAt(k);
        if (c == '-' || c == '*' || c == '+' || c == '•') {
            k++;
        } else {
            while (k < s.length() && k - i < 3 && Character.isDigit(s.charAt(k))) k++;
            if (k == i || k >= s.length() || (s.charAt(k) != '.' && s.charAt(k) != ')')) return i;
            k++;
        }
        int blanks = k;
        while (k < s.length() && k - blanks < MAX_BLANKS && (s.charAt(k) == ' ' || s.charAt(k) == '\t')) k++;
        if (k == blanks || k >= s.length()) return i;
        return s.charAt(k) == '`' || brackets.isOpener(k) ? k : i;
    }

    private int ticksEnd(int i) {
        int k = i;
        while (k < s.length() && k - i < 3 && s.charAt(k) == '`') k++;
        if (k == i) return i;
        boolean beforeCommand = k < s.length() && brackets.isOpener(k);
        boolean afterCommand = i > 0 && (s.charAt(i - 1) == '}' || s.charAt(i - 1) == ']');
        return beforeCommand || afterCommand ? k : i;
    }
}
