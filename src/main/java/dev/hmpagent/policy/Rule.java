package dev.hmpagent.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * One rule: the words of a command prefix. Quotes group words as in the shell ({@code python3 -c
 * 'print(1)'} is three words), with no expansion; {@code *} or nothing matches every command.
 */
record Rule(String text, List<String> words) {
    Rule {
        words = List.copyOf(words);
    }

    static Rule parse(String text) {
        String stripped = text.strip();
        return new Rule(stripped, stripped.equals("*") ? List.of() : words(stripped));
    }

    boolean matchesEverything() {
        return words.isEmpty();
    }

    /** Splits on blanks outside quotes; an unclosed quote runs to the end. */
    static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < text.length() && "\\\"$`".indexOf(text.charAt(i + 1)) >= 0) {
                    word.append(text.charAt(++i));
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (c == '\\' && i + 1 < text.length()) {
                word.append(text.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    out.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            out.add(word.toString());
        }
        return out;
    }
}
