package dev.hmpagent.process;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * {@code safety.alert_command}: the command line a person set in agent.toml, run on every lockout so that a
 * headless lockout reaches someone who is not watching. Runs {@code /bin/sh -c <command> hmp-agent-alert <reason>}
 * (so the reason is {@code $1}) with the reason also in {@code HMP_AGENT_ALERT}, stdin closed, its output kept
 * only in a small buffer, killed with its whole process tree after the timeout. {@link #run} never blocks and
 * never throws: the future always completes with a {@link Result}.
 */
public final class AlertCommand {
    /** The environment variable that carries the reason. */
    public static final String REASON_VARIABLE = "HMP_AGENT_ALERT";
    /** How long the command may run before it is killed. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** Characters of the command's output (its tail) kept in the result. */
    static final int OUTPUT_CAP = 2048;
    private static final int REASON_CAP = 4096;
    private static final long READER_GRACE_MS = 500;

    /**
     * How one run ended.
     *
     * @param exitCode the command's exit status, or -1 when it did not end by itself (see {@code failure})
     * @param failure  empty when the command ran to its end; else why not (not configured, could not start, timed out)
     * @param output   the tail of what it wrote to stdout and stderr, at most {@value #OUTPUT_CAP} characters
     */
    public record Result(int exitCode, String failure, String output) {
        public Result {
            Objects.requireNonNull(failure, "failure");
            Objects.requireNonNull(output, "output");
        }

        static Result exited(int exitCode, String output) {
            return new Result(exitCode, "", output);
        }

        static Result failed(String failure, String output) {
            return new Result(-1, failure, output);
        }

        /** True when the command ran to its end and exited 0. */
        public boolean ok() {
            return failure.isEmpty() && exitCode == 0;
        }
    }

    private final String commandLine;
    private final Duration timeout;
    private final Executor executor;
    private final Map<String, String> environment;

    /**
     * Runs {@code commandLine} (empty: none) on a fresh daemon thread per alert, killed after 10 s, with only
     * {@code environment} (the allow-list every child of the agent gets) and the reason.
     */
    public AlertCommand(String commandLine, Map<String, String> environment) {
        this(commandLine, DEFAULT_TIMEOUT, AlertCommand::daemonThread, environment);
    }

    /** As above, with only the agent's PATH (a caller outside a configured run). */
    public AlertCommand(String commandLine) {
        this(commandLine, DEFAULT_TIMEOUT, AlertCommand::daemonThread, pathOnly());
    }

    public AlertCommand(String commandLine, Duration timeout, Executor executor) {
        this(commandLine, timeout, executor, pathOnly());
    }

    private static Map<String, String> pathOnly() {
        return Map.of("PATH", Objects.requireNonNullElse(System.getenv("PATH"), "/usr/bin:/bin"));
    }

    public AlertCommand(String commandLine, Duration timeout, Executor executor, Map<String, String> environment) {
        this.commandLine = Objects.requireNonNull(commandLine, "commandLine");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.environment = Map.copyOf(environment);
    }

    /** True when a command is configured. */
    public boolean configured() {
        return !commandLine.isBlank();
    }

    /**
     * The safety monitor's alerter: starts the command for {@code reason} when one is configured, in the background,
     * and forgets it (its result is for the tests and the log of a person who runs it by hand).
     */
    public void alert(String reason) {
        if (configured()) run(reason);
    }

    /** Starts the command for {@code reason} in the background; the future completes when it ended or was killed. */
    public CompletableFuture<Result> run(String reason) {
        if (!configured()) {
            return CompletableFuture.completedFuture(Result.failed("no safety.alert_command is set", ""));
        }
        String clean = clean(reason == null ? "" : reason);
        try {
            return CompletableFuture.supplyAsync(() -> runNow(clean), executor)
                    .exceptionally(e -> Result.failed("the alert command failed: " + e.getMessage(), ""));
        } catch (RuntimeException e) {   // the executor refused: still never throw at the caller
            return CompletableFuture.completedFuture(Result.failed("the alert command could not be started: "
                    + e.getMessage(), ""));
        }
    }

    private Result runNow(String reason) {
        ProcessBuilder builder = new ProcessBuilder(List.of("/bin/sh", "-c", commandLine, "hmp-agent-alert", reason))
                .redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(environment);
        builder.environment().put(REASON_VARIABLE, reason);
        Process process;
        try {
            process = builder.start();
        } catch (IOException | RuntimeException e) {
            return Result.failed("the alert command could not be started: " + e.getMessage(), "");
        }
        closeQuietly(process);
        Tail tail = new Tail(process.getInputStream());
        Thread reader = new Thread(tail, "alert-command-output");
        reader.setDaemon(true);
        reader.start();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                killTree(process);
                return Result.failed("timed out after " + describe(timeout) + ": killed", tail.await(reader));
            }
            return Result.exited(process.exitValue(), tail.await(reader));
        } catch (InterruptedException e) {
            killTree(process);
            Thread.currentThread().interrupt();
            return Result.failed("interrupted: killed", tail.text());
        }
    }

    /** The reason as one environment value: no NUL (the OS refuses it), at most {@value #REASON_CAP} characters. */
    private static String clean(String reason) {
        String text = reason.replace('\0', ' ');
        return text.length() <= REASON_CAP ? text : text.substring(0, REASON_CAP) + "…";
    }

    private static void closeQuietly(Process process) {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // stdin is closed either way
        }
    }

    /** Children first, while they can still be found through the parent, then the shell itself. */
    private static void killTree(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private static String describe(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    private static void daemonThread(Runnable work) {
        Thread thread = new Thread(work, "alert-command");
        thread.setDaemon(true);
        thread.start();
    }

    /** Drains the output so the command never blocks on a full pipe, keeping only its last characters. */
    private static final class Tail implements Runnable {
        private final InputStream in;
        private final StringBuilder kept = new StringBuilder();

        Tail(InputStream in) {
            this.in = in;
        }

        @Override
        public void run() {
            byte[] buffer = new byte[4096];
            try (in) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                // the process ended or was killed: keep what was read
            }
        }

        private synchronized void append(String text) {
            kept.append(text);
            if (kept.length() > OUTPUT_CAP) kept.delete(0, kept.length() - OUTPUT_CAP);
        }

        synchronized String text() {
            return kept.toString();
        }

        /** Waits briefly for the rest of the output (a background grandchild may hold the pipe open). */
        String await(Thread reader) throws InterruptedException {
            reader.join(READER_GRACE_MS);
            return text();
        }
    }
}
