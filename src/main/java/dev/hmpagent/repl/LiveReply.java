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
 * screen. The whole reply is read again when it is complete; this is only what the person watches meanwhile. It is
 * drawn at every delta, so one instance per reply remembers what it read: a draw costs what arrived since, not the
 * whole reply again.
 */
final class LiveReply {
    /** A start marker on a line of its own, as the command-block parser reads it (# Commands:, **Команды:**). */
    private static final Pattern MARKER = Pattern.compile("^\\s*(?:\\*\\*)?\\s*(?:#{1,3}\\s*)?(?:\\*\\*)?\\s*"
            + "(?:commands|команды)\\s*:?\\s*(?:\\*\\*)?\\s*:?\\s*$", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Pattern TYPE = Pattern.compile("\"type\"\\s*:\\s*\"([^\"\\\\]{1,80})\"");
    /** The first string argument, complete or still streaming. */
    private static final Pattern FIRST_ARG = Pattern.compile("\"args\"\\s*:\\s*\\{\\s*\"[^\"]*\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)");

    /** How much after a command's {@code "type"} is read for its main argument: a row shows no more. */
    private static final int ARG_WINDOW = 400;
    /** Longer than any {@code "type": "name"} still arriving: where the search for the next one resumes. */
    private static final int TYPE_OVERLAP = 120;

    // what earlier draws of this reply read already: each delta reads only what came since (a reply runs to MBs)
    /** Where the first line not yet read for a marker begins. */
    private int lineScan;
    /** The last marker among complete lines ({@code -1}: none). */
    private int block = -1;
    /** Where the search for the next {@code "type"} resumes. */
    private int typeScan;
    /** Where each {@code "type": "name"} found so far begins and ends, and its name. */
    private final List<int[]> types = new ArrayList<>();
    private final List<String> names = new ArrayList<>();

    /** The rows of a whole reply at once (one draw). */
    static List<String> rows(String reply, int max, int width) {
        return new LiveReply().rows((CharSequence) reply, max, width);
    }

    /**
     * The last {@code max} rows of {@code reply} as the live region shows them, each at most {@code width} columns;
     * {@code reply} is the same reply as at the last call, grown (a new reply gets a new instance).
     */
    List<String> rows(CharSequence reply, int max, int width) {
        int at = blockStart(reply);
        List<String> commands = at < 0 ? List.of() : summaries(reply, at, width, Math.max(1, max / 2));
        CharSequence prose = at < 0 ? reply : reply.subSequence(0, at);
        List<String> rows = new ArrayList<>(isBlank(prose) ? List.of() : tail(prose, max - commands.size(), width));
        rows.addAll(commands);
        return List.copyOf(rows);
    }

    /**
     * Where the last start marker's line begins ({@code -1}: no command block yet). Complete lines are read once; the
     * unfinished last line is read at each call, and counts only while it still reads as a marker.
     */
    private int blockStart(CharSequence reply) {
        int start = lineScan;
        while (true) {
            int nl = indexOf(reply, '\n', start);
            int end = nl < 0 ? reply.length() : nl;
            boolean marker = end - start < 40 && MARKER.matcher(reply.subSequence(start, end)).matches();
            if (nl < 0) return marker ? start : block;
            if (marker) block = start;
            start = nl + 1;
            lineScan = start;
        }
    }

    /** One row a command of the block so far, at most {@code max} rows ("… 5 commands in all" the last when more). */
    private List<String> summaries(CharSequence reply, int at, int width, int max) {
        Matcher type = TYPE.matcher(reply).region(typeScan, reply.length());
        int resume = typeScan;
        while (type.find()) {
            types.add(new int[] {type.start(), type.end()});
            names.add(type.group(1));
            resume = type.end();
        }
        typeScan = Math.max(resume, reply.length() - TYPE_OVERLAP);
        int first = 0;
        while (first < types.size() && types.get(first)[0] < at) first++;
        int count = types.size() - first;
        if (count == 0) return List.of("▸ preparing commands…");
        List<String> shown = new ArrayList<>();
        for (int i = first; i < types.size() && shown.size() < (count <= max ? max : max - 1); i++) {
            int from = types.get(i)[1];
            int end = Math.min(i + 1 < types.size() ? types.get(i + 1)[0] : reply.length(), from + ARG_WINDOW);
            Matcher arg = FIRST_ARG.matcher(reply.subSequence(from, end));
            String main = arg.find() ? ": " + arg.group(1).replace("\\n", " ").replace("\\\"", "\"") : "";
            shown.add(Text.fit(Printable.oneLine("▸ " + names.get(i) + main, 1_000), width));
        }
        if (count > max) shown.add("▸ … " + count + " commands in all");
        return shown;
    }

    private static int indexOf(CharSequence s, char c, int from) {
        for (int i = from; i < s.length(); i++) {
            if (s.charAt(i) == c) return i;
        }
        return -1;
    }

    private static boolean isBlank(CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isWhitespace(s.charAt(i))) return false;
        }
        return true;
    }

    /** The last {@code max} rows of {@code text} broken at word boundaries, each at most {@code width} columns. */
    static List<String> tail(CharSequence text, int max, int width) {
        if (max <= 0) return List.of();
        // only the end of a long reply can show: never re-wrap all of it at every token
        String end = text.subSequence(Math.max(0, text.length() - max * (width + 1) * 4), text.length()).toString();
        List<String> rows = new ArrayList<>(Wrap.rows(Printable.text(end).replace("\t", "    "), width));
        while (rows.size() > 1 && rows.get(rows.size() - 1).isBlank()) rows.remove(rows.size() - 1);
        return List.copyOf(rows.subList(Math.max(0, rows.size() - max), rows.size()));
    }
}
