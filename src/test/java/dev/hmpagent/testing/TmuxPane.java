package dev.hmpagent.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Assumptions;

/**
 * A program running in a real pseudo-terminal, as a person would run it: one tmux server on its own socket (in the
 * test's directory), one 100×30 pane, keys sent the way a keyboard sends them, the screen read back with
 * {@code capture-pane}. Waiting is polling the screen until a condition holds, up to a deadline; a miss fails with
 * the last screen in the message.
 * A machine without tmux on its PATH skips the test with the reason ({@code .ci/run} installs tmux, so CI runs them).
 */
public final class TmuxPane implements AutoCloseable {
    /** How long {@link #await} polls before it fails; generous, the CI box is small and shared. */
    public static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final String SESSION = "agent";
    private static final long POLL_MILLIS = 50;

    private final String socket;
    private final Path dir;
    private final long panePid;
    private final Path exitFile;

    private TmuxPane(String socket, Path dir, long panePid, Path exitFile) {
        this.socket = socket;
        this.dir = dir;
        this.panePid = panePid;
        this.exitFile = exitFile;
    }

    /**
     * Starts {@code argv} in a new 100×30 pane, its process seeing exactly {@code env}. A shell in between only
     * writes the exit code to a file ({@code pane_dead_status} is not reliable: tmux 3.3 sometimes misses a JVM's
     * exit) and outlives a Ctrl-C meant for the program (its trap is reset to the default in the program); the
     * pane stays on screen after the program exits.
     */
    public static TmuxPane start(Path dir, Map<String, String> env, List<String> argv) throws IOException, InterruptedException {
        return start(dir, env, argv, 100);
    }

    /** As {@link #start(Path, Map, List)}, in a pane {@code columns} wide (the screen tests compare 60, 120 and 200). */
    public static TmuxPane start(Path dir, Map<String, String> env, List<String> argv, int columns)
            throws IOException, InterruptedException {
        requireTmux();
        Path conf = dir.resolve("tmux.conf");
        Files.writeString(conf, String.join("\n",
                "set -g remain-on-exit on",          // the last screen stays readable after the program exits
                "set -g status off",                 // all 30 rows are the program's
                "set -g default-terminal screen-256color",
                "set -g history-limit 1000", ""));
        String name = "tmux-" + System.nanoTime();   // in the test's directory, so it goes with it
        String socket = dir.resolve(name).toString();
        Path exit = dir.resolve(name + ".exit");
        String tmp = quote(exit + ".tmp");
        String shell = "trap : INT; \"$@\"; echo $? > " + tmp + " && mv " + tmp + " " + quote(exit.toString());
        List<String> command = new ArrayList<>(List.of("-f", conf.toString(),
                "new-session", "-d", "-s", SESSION, "-x", String.valueOf(columns), "-y", "30", "sh", "-c", shell, "sh", "env", "-i"));
        env.forEach((k, v) -> command.add(k + "=" + v));
        command.addAll(argv);
        run(socket, dir, command);
        long pid = Long.parseLong(run(socket, dir, List.of("display-message", "-p", "-t", SESSION, "#{pane_pid}")).strip());
        return new TmuxPane(socket, dir, pid, exit);
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** Skips the calling test, saying why, when tmux cannot be run from this JVM's PATH. */
    private static void requireTmux() throws InterruptedException {
        Assumptions.assumeTrue(tmuxRuns(), "skipped: tmux is not on the PATH, and the terminal tests drive the agent"
                + " in a pseudo-terminal with it: apt-get install tmux (.ci/run installs it, so CI runs them)");
    }

    private static boolean tmuxRuns() throws InterruptedException {
        try {
            Process p = new ProcessBuilder("tmux", "-V").redirectErrorStream(true).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;   // not installed
        }
    }

    /** Types {@code text} literally, as a person typing it (no key names interpreted). */
    public TmuxPane type(String text) throws IOException, InterruptedException {
        tmux(List.of("send-keys", "-t", SESSION, "-l", text));
        return this;
    }

    /** Presses keys by tmux name: {@code Enter}, {@code Tab}, {@code Up}, {@code C-c}, {@code C-d}. */
    public TmuxPane press(String... keys) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("send-keys", "-t", SESSION));
        command.addAll(List.of(keys));
        tmux(command);
        return this;
    }

    /** The screen now: text, colours and cursor, read in one tmux command so they belong together. */
    public Screen capture() throws IOException, InterruptedException {
        String out = tmux(List.of("display-message", "-p", "-t", SESSION, "#{cursor_y}",
                ";", "capture-pane", "-p", "-e", "-t", SESSION));
        int nl = out.indexOf('\n');
        return Screen.parse(out.substring(nl + 1), Integer.parseInt(out.substring(0, nl).strip()));
    }

    /** Polls the screen until {@code condition} holds; fails after {@link #PATIENCE}, showing the last screen. */
    public Screen await(String what, Predicate<Screen> condition) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            Screen s = capture();
            if (condition.test(s)) return s;
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited " + PATIENCE.toSeconds() + " s for " + what + "; the screen was:\n" + s);
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /** Waits until the program in the pane has exited; its exit code. */
    public int awaitExit() throws IOException, InterruptedException {
        await("the program to exit", s -> Files.exists(exitFile));
        return Integer.parseInt(Files.readString(exitFile).strip());
    }

    private String tmux(List<String> args) throws IOException, InterruptedException {
        return run(socket, dir, args);
    }

    private static String run(String socket, Path dir, List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("tmux", "-u", "-S", socket));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().remove("TMUX");                    // not nested in a tmux the tests may run in
        pb.environment().put("LC_ALL", "C.UTF-8");          // tmux keeps UTF-8 text as it is
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("tmux " + args + " did not return in 10 s");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) throw new AssertionError("tmux " + args + " failed (" + p.exitValue() + "): " + text);
        return text;
    }

    /**
     * Kills the tmux server (the program gets SIGHUP) and waits until no process of the pane is running any more,
     * killing survivors after 10 s, so nothing writes into the test's directory while it is deleted.
     */
    @Override
    public void close() throws IOException, InterruptedException {
        List<ProcessHandle> tree = new ArrayList<>();
        ProcessHandle.of(panePid).ifPresent(p -> {
            tree.add(p);
            p.descendants().forEach(tree::add);
        });
        try {
            tmux(List.of("kill-server"));
        } catch (AssertionError e) {
            // already gone
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (ProcessHandle p : tree) {
            while (running(p) && System.nanoTime() < deadline) Thread.sleep(POLL_MILLIS);
            if (running(p)) p.destroyForcibly();
        }
    }

    /** Alive and not a zombie (an orphan's zombie may never be reaped where init does not reap). */
    private static boolean running(ProcessHandle p) {
        if (!p.isAlive()) return false;
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException e) {
            return false;   // gone
        }
    }

    /**
     * One captured screen: its rows as plain text (trailing blanks trimmed, as tmux gives them), which characters
     * are dim, and the cursor's row.
     */
    public static final class Screen {
        private final List<String> rows;
        private final List<boolean[]> dim;
        private final int cursorRow;

        private Screen(List<String> rows, List<boolean[]> dim, int cursorRow) {
            this.rows = List.copyOf(rows);
            this.dim = List.copyOf(dim);
            this.cursorRow = cursorRow;
        }

        /** Parses {@code capture-pane -e} output: SGR sequences set the attributes of the text after them. */
        static Screen parse(String escaped, int cursorRow) {
            List<String> rows = new ArrayList<>();
            List<boolean[]> dims = new ArrayList<>();
            boolean dimNow = false;
            for (String line : escaped.split("\n", -1)) {
                StringBuilder text = new StringBuilder();
                List<Boolean> mask = new ArrayList<>();
                int i = 0;
                while (i < line.length()) {
                    char c = line.charAt(i);
                    if (c == '\u001b' && i + 1 < line.length() && line.charAt(i + 1) == '[') {
                        int end = i + 2;
                        while (end < line.length() && !Character.isLetter(line.charAt(end))) end++;
                        if (end < line.length() && line.charAt(end) == 'm') dimNow = dimAfter(dimNow, line.substring(i + 2, end));
                        i = end + 1;
                    } else {
                        text.append(c);
                        mask.add(dimNow);
                        i++;
                    }
                }
                boolean[] m = new boolean[mask.size()];
                for (int k = 0; k < m.length; k++) m[k] = mask.get(k);
                rows.add(text.toString());
                dims.add(m);
            }
            if (!rows.isEmpty() && rows.get(rows.size() - 1).isEmpty()) {   // the newline after the last row
                rows.remove(rows.size() - 1);
                dims.remove(dims.size() - 1);
            }
            return new Screen(rows, dims, cursorRow);
        }

        /** Whether text is dim after an SGR with these parameters (2 = faint on; 0, 22 or none = off). */
        private static boolean dimAfter(boolean dim, String params) {
            if (params.isEmpty()) return false;
            String[] p = params.split("[;:]");
            for (int i = 0; i < p.length; i++) {
                switch (p[i]) {
                    case "", "0", "22" -> dim = false;
                    case "2" -> dim = true;
                    case "38", "48", "58" -> i += i + 1 < p.length && "5".equals(p[i + 1]) ? 2 : 4;   // a colour's operands
                    default -> { }
                }
            }
            return dim;
        }

        public List<String> rows() {
            return rows;
        }

        /** The row the cursor is on: the line being edited. */
        public String promptLine() {
            return cursorRow < rows.size() ? rows.get(cursorRow) : "";
        }

        /** The rows above the cursor's row, top to bottom. */
        public List<String> above() {
            return rows.subList(0, Math.min(cursorRow, rows.size()));
        }

        /** The rows above the cursor's row, joined by newlines. */
        public String textAbove() {
            return String.join("\n", above());
        }

        public String text() {
            return String.join("\n", rows);
        }

        public boolean contains(String s) {
            return rows.stream().anyMatch(r -> r.contains(s));
        }

        /** Whether {@code s} is on one of the {@code n} rows just above the cursor's row. */
        public boolean justAbove(String s, int n) {
            for (int r = Math.max(0, cursorRow - n); r < Math.min(cursorRow, rows.size()); r++) {
                if (rows.get(r).contains(s)) return true;
            }
            return false;
        }

        /** Whether every non-blank character of the first occurrence of {@code s} on screen is dim. */
        public boolean isDim(String s) {
            for (int r = 0; r < rows.size(); r++) {
                int at = rows.get(r).indexOf(s);
                if (at < 0) continue;
                for (int k = at; k < at + s.length(); k++) {
                    if (!Character.isWhitespace(rows.get(r).charAt(k)) && !dim.get(r)[k]) return false;
                }
                return true;
            }
            return false;
        }

        /** The screen as a person sees it down to its last text, the cursor's row marked, for failure messages. */
        @Override
        public String toString() {
            int end = cursorRow;
            for (int r = 0; r < rows.size(); r++) if (!rows.get(r).isEmpty()) end = Math.max(end, r);
            StringBuilder sb = new StringBuilder();
            for (int r = 0; r <= Math.min(end, rows.size() - 1); r++) {
                sb.append(r == cursorRow ? "▶ " : "│ ").append(rows.get(r)).append('\n');
            }
            return sb.toString();
        }
    }
}
