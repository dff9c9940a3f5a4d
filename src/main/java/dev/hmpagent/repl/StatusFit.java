package dev.hmpagent.repl;

import dev.hmpagent.text.Text;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The status line on one row at any width. Its parts ("ACTIVE · waiting for event · tick 4 · task 1.2k / 1M tokens
 * · 1 message pending · gpt-x") are shortened first ("#4", "task 1.2k/1M", "1 msg", "2 proc"), then dropped from the
 * least needed: the tick, the model, the task's tokens. The safety state and the phase go last: they are what a
 * person looks down for. A row that wraps would push the prompt down and leave a copy behind at every redraw.
 */
final class StatusFit {
    static final String SEPARATOR = " · ";

    private StatusFit() { }

    /** {@code line} (parts joined by " · ") within {@code width} columns. */
    static String fit(String line, int width) {
        if (fits(line, width)) return line;
        List<String> parts = new ArrayList<>(Arrays.asList(line.split(SEPARATOR, -1)));
        parts.replaceAll(StatusFit::shorter);
        String joined = String.join(SEPARATOR, parts);
        if (fits(joined, width)) return joined;
        for (String drop : List.of("#", "model", "task ")) {
            if (drop.equals("model")) {
                if (parts.size() > 2) parts.remove(parts.size() - 1);   // the model is always the last part
            } else {
                parts.removeIf(p -> p.startsWith(drop));
            }
            joined = String.join(SEPARATOR, parts);
            if (fits(joined, width)) return joined;
        }
        return Text.fit(joined, width);
    }

    /** The short form of one part, or the part itself. */
    private static String shorter(String part) {
        if (part.matches("tick \\d+")) return "#" + part.substring(5);
        if (part.matches("task .* / .* tokens")) return part.replace(" / ", "/").replace(" tokens", "");
        if (part.matches("\\d+ messages? pending")) return part.replaceFirst(" messages? pending", " msg");
        if (part.matches("\\d+ process(?:es)? running")) return part.replaceFirst(" process(?:es)? running", " proc");
        return part;
    }

    private static boolean fits(String s, int width) {
        return Wrap.columns(s, 0, s.length()) <= width;
    }
}
