package dev.hmpagent.repl;

import dev.hmpagent.text.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A reply as the live region shows it while it streams: its last rows, broken at word boundaries, and in place of
 * the command block (from its {@code # Commands:} line on) one line a command, its type and main argument
 * ("▸ send_message: Here is my answer"), never the JSON itself, which says nothing to a person and fills the
 * screen. The whole reply is read again when it is complete; this is only what the person watches meanwhile.
 */
final class LiveReply {
    /** A start marker on a line of its own, as the command-block parser reads it (# Commands:, **Команды:**). */
    private static final Pattern MARKER = Pattern.compile("^\\s*(?:\\*\\*)?\\s*(?:#{1,3}\\s*)?(?:\\*\\*)?\\s*"
            + "(?:commands|команды)\\s*:?\\s*(?:\\*\\*)?\\s*:?\\s*$", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Pattern TYPE = Pattern.compile("\"type\"\\s*:\\s*\"([^\"\\\\]{1,80})\"");
    /** The first string argument, complete or still streaming. */
    private static final Pattern FIRST_ARG = Pattern.compile("\"args\"\\s*:\\s*\\{\\s*\"[^\"]*\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)");

    private LiveReply() { }

    /** The last {@code max} rows of {@code reply} as the live region shows them, each at most {@code width} columns. */
    static List<String> rows(String reply, int max, int width) {
        int block = blockStart(reply);
        List<String> commands = block < 0 ? List.of() : summaries(reply.substring(block), width, Math.max(1, max / 2));
        String prose = block < 0 ? reply : reply.substring(0, block);
        List<String> rows = new ArrayList<>(prose.isBlank() ? List.of() : tail(prose, max - commands.size(), width));
        rows.addAll(commands);
        return List.copyOf(rows);
    }

    /** Where the last start marker's line begins ({@code -1}: no command block yet). */
    static int blockStart(String reply) {
        int found = -1;
        int start = 0;
        while (start <= reply.length()) {
            int nl = reply.indexOf('\n', start);
            int end = nl < 0 ? reply.length() : nl;
            if (end - start < 40 && MARKER.matcher(reply.substring(start, end)).matches()) found = start;
            if (nl < 0) break;
            start = nl + 1;
        }
        return found;
    }

    /** One row a command of the block so far, at most {@code max} rows ("… 5 commands in all" the last when more). */
    static List<String> summaries(String block, int width, int max) {
        List<String> all = new ArrayList<>();
        Matcher type = TYPE.matcher(block);
        List<String> names = new ArrayList<>();
        List<int[]> spans = new ArrayList<>();
        while (type.find()) {
            names.add(type.group(1));
            spans.add(new int[] {type.start(), type.end()});
        }
        for (int i = 0; i < spans.size(); i++) {
            int end = i + 1 < spans.size() ? spans.get(i + 1)[0] : block.length();
            String name = names.get(i);
            Matcher arg = FIRST_ARG.matcher(block.substring(spans.get(i)[1], end));
            String main = arg.find() ? ": " + arg.group(1).replace("\\n", " ").replace("\\\"", "\"") : "";
            all.add(Text.fit(Printable.oneLine("▸ " + name + main, 1_000), width));
        }
        if (all.isEmpty()) return List.of("▸ preparing commands…");
        if (all.size() <= max) return all;
        List<String> shown = new ArrayList<>(all.subList(0, max - 1));
        shown.add("▸ … " + all.size() + " commands in all");
        return shown;
    }

    /** The last {@code max} rows of {@code text} broken at word boundaries, each at most {@code width} columns. */
    static List<String> tail(String text, int max, int width) {
        if (max <= 0) return List.of();
        // only the end of a long reply can show: never re-wrap all of it at every token
        String end = text.substring(Math.max(0, text.length() - max * (width + 1) * 4));
        List<String> rows = new ArrayList<>(Wrap.rows(Printable.text(end).replace("\t", "    "), width));
        while (rows.size() > 1 && rows.get(rows.size() - 1).isBlank()) rows.remove(rows.size() - 1);
        return List.copyOf(rows.subList(Math.max(0, rows.size() - max), rows.size()));
    }
}
