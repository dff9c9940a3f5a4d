package dev.hmpagent.mcp;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The last lines a stdio server wrote on its stderr, and the one of them that says why it failed. The last line alone
 * is often no reason at all: node ends a "Cannot find module" with {@code Node.js v20.20.2}, npm ends with where its
 * log went, a stack trace with its frames. So the line quoted is the one naming a cause (a missing module or command,
 * a refused permission, a name that did not resolve), else npm's own error line, else a line saying error, else the
 * last line that is not such noise.
 */
final class ServerStderr {
    /** How many lines are kept: enough for a stack trace and npm's error block. */
    static final int KEPT = 60;
    /** Lines that say nothing of the cause: a version banner, stack frames, a caret, npm's notices and log path. */
    private static final Pattern NOISE = Pattern.compile("^Node\\.js v\\d.*|^\\s+at .*|^\\s*\\^+\\s*$"
            + "|^\\s*throw \\w+;?\\s*$|^node:internal/.*|^npm (ERR!|error) A complete log.*|^npm (notice|warn|WARN).*"
            + "|^\\s*[{}\\[\\]]\\s*$|^\\s+\\w+: .*(,|\\[])\\s*$|^Require stack:.*|^- /.*"
            + "|^Traceback \\(most recent call last\\):.*");
    /** A line naming the cause, most telling first. */
    private static final Pattern CAUSE = Pattern.compile("Cannot find module|ModuleNotFoundError|No module named"
            + "|command not found|: not found$|No such file or directory|EACCES|[Pp]ermission denied|ENOTFOUND"
            + "|EAI_AGAIN|ENOTCACHED|ECONNREFUSED|ETIMEDOUT|ENETUNREACH");
    /** npm's error lines, but not its bare fields ({@code npm error code EAI_AGAIN}): the line after says more. */
    private static final Pattern NPM = Pattern.compile("^npm (ERR!|error) .*");
    private static final Pattern NPM_FIELD = Pattern.compile("^npm (ERR!|error) (code|errno|syscall) \\S+\\s*$");
    private static final Pattern ERROR = Pattern.compile("(Error|Exception|error|ERROR|fatal|FATAL)\\b");

    /** How long a start waits for the rest of the stderr of a server that exited during it (its reader may lag). */
    private static final long DRAIN_MS = 2000;

    private final Deque<String> lines = new ArrayDeque<>();
    /** Counted down when the current process's stderr ended; a new one for each start. */
    private volatile java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(1);

    /** Keeps {@code line}, dropping the oldest beyond {@link #KEPT}. */
    synchronized void add(String line) {
        if (line.isBlank()) return;
        lines.addLast(line);
        if (lines.size() > KEPT) lines.removeFirst();
    }

    /** The server's stderr ended: it wrote all it will. */
    void ended() {
        ended.countDown();
    }

    /** Forgets every line (a restart starts afresh). */
    synchronized void clear() {
        lines.clear();
        ended = new java.util.concurrent.CountDownLatch(1);
    }

    /** How long a server that ended its stdout is given to exit before its stderr is waited for. */
    static final long EXIT_GRACE_MS = 300;

    /**
     * Waits (a while at most) for the end of the stderr of a server that exited, before its client is closed: closing
     * it destroys the process, which closes the pipe, and the lines not yet read would be lost.
     */
    void awaitEnd() {
        try {
            ended.await(DRAIN_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * As {@link #awaitEnd()} when {@code server} has exited or does within a moment (it closed its stdout to exit).
     * A server that lives on (it broke the protocol, its stdout still open) is not waited for: its stderr would not
     * end, and its start's failure would be said seconds late.
     */
    void awaitEnd(ProcessHandle server) {
        if (server != null) {
            try {
                server.onExit().get(EXIT_GRACE_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        awaitEnd();
    }

    /** The line that says why, as the class says it is chosen; "" when the server wrote nothing. */
    synchronized String meaningful() {
        return meaningful(List.copyOf(lines));
    }

    /** The line of {@code lines} that says why: the first naming a cause, else npm's, else the last error or line. */
    static String meaningful(List<String> lines) {
        List<String> said = lines.stream().filter(l -> !l.isBlank() && !NOISE.matcher(l).matches()).toList();
        return said.stream().filter(l -> CAUSE.matcher(l).find() && !NPM_FIELD.matcher(l).matches()).findFirst()
                .or(() -> said.stream().filter(l -> NPM.matcher(l).matches() && !NPM_FIELD.matcher(l).matches())
                        .findFirst())
                .or(() -> said.stream().filter(l -> ERROR.matcher(l).find()).reduce((a, b) -> b))
                .or(() -> said.stream().reduce((a, b) -> b))
                .orElse(lines.isEmpty() ? "" : lines.get(lines.size() - 1)).strip();
    }
}
