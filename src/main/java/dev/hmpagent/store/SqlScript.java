package dev.hmpagent.store;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a migration script into statements: on ';' outside quotes and comments, keeping
 * CREATE TRIGGER ... BEGIN ... END; bodies whole.
 */
final class SqlScript {
    private SqlScript() { }

    static List<String> split(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int depth = 0;
        int i = 0;
        while (i < script.length()) {
            char c = script.charAt(i);
            if (c == '-' && script.startsWith("--", i)) {
                int end = script.indexOf('\n', i);
                i = end < 0 ? script.length() : end;
                continue;
            }
            if (c == '\'' || c == '"') {
                int end = closingQuote(script, i, c);
                current.append(script, i, end);
                i = end;
                continue;
            }
            if (Character.isLetter(c) && (i == 0 || !Character.isLetterOrDigit(script.charAt(i - 1)))) {
                int end = i;
                while (end < script.length() && (Character.isLetterOrDigit(script.charAt(end)) || script.charAt(end) == '_')) end++;
                String word = script.substring(i, end).toUpperCase(java.util.Locale.ROOT);
                if (word.equals("BEGIN") || word.equals("CASE")) depth++;
                else if (word.equals("END") && depth > 0) depth--;
                current.append(script, i, end);
                i = end;
                continue;
            }
            if (c == ';' && depth == 0) {
                addIfNotBlank(out, current);
                current.setLength(0);
            } else {
                current.append(c);
            }
            i++;
        }
        addIfNotBlank(out, current);
        return out;
    }

    private static int closingQuote(String s, int start, char quote) {
        int i = start + 1;
        while (i < s.length()) {
            if (s.charAt(i) == quote) {
                if (i + 1 < s.length() && s.charAt(i + 1) == quote) { i += 2; continue; }
                return i + 1;
            }
            i++;
        }
        return s.length();
    }

    private static void addIfNotBlank(List<String> out, StringBuilder sb) {
        String s = sb.toString().strip();
        if (!s.isEmpty()) out.add(s);
    }
}
