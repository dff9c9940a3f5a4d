package dev.hmpagent.policy;

import java.util.regex.Pattern;

/** Accumulates one {@link Word} while {@link ShellSplitter} reads it. */
final class WordBuilder {
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder regex = new StringBuilder();
    private final StringBuilder pendingLiteral = new StringBuilder();
    private int valueStart = -1;
    private boolean dynamic;
    private boolean expands;
    boolean quoted;
    private boolean prefixOpen = true;
    private int literalPrefix;
    int braceDepth;
    boolean braceSequence;

    void literal(char c, boolean fromQuotes) {
        literal(String.valueOf(c), fromQuotes);
    }

    void literal(String chars, boolean fromQuotes) {
        int eq = chars.indexOf('=');
        if (valueStart < 0 && eq >= 0) {
            text.append(chars, 0, eq + 1);
            pendingLiteral.append(chars, 0, eq + 1);
            flushLiteral();
            valueStart = regex.length();
            text.append(chars, eq + 1, chars.length());
            pendingLiteral.append(chars, eq + 1, chars.length());
        } else {
            text.append(chars);
            pendingLiteral.append(chars);
        }
        if (fromQuotes) {
            quoted = true;
            prefixOpen = false;
        } else if (prefixOpen) {
            literalPrefix += chars.length();
        }
    }

    /** An unquoted glob such as {@code *}: kept as written, matching {@code regex}. */
    void glob(String written, String regexForIt) {
        wildcard(written, regexForIt);
    }

    /** {@code $X}, {@code ${X}}, {@code $(…)} or a backquoted command: any value. */
    void expansion(String written) {
        expands = true;
        wildcard(written, ".*");
    }

    private void wildcard(String written, String regexForIt) {
        flushLiteral();
        text.append(written);
        regex.append(regexForIt);
        dynamic = true;
        prefixOpen = false;
    }

    private void flushLiteral() {
        if (!pendingLiteral.isEmpty()) {
            regex.append(Pattern.quote(pendingLiteral.toString()));
            pendingLiteral.setLength(0);
        }
    }

    Word build() {
        flushLiteral();
        String value = valueStart < 0 ? "" : regex.substring(valueStart);
        return new Word(text.toString(), regex.toString(), value, dynamic, quoted, literalPrefix, expands);
    }
}
