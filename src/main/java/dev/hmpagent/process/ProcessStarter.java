package dev.hmpagent.process;

import java.io.File;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;

/**
 * Starts every process from one long-lived thread. A sandbox started with {@code --die-with-parent} is killed when
 * the thread that started it ends (the kernel's parent-death signal follows the thread), so no short-lived thread
 * (the tick thread of one tick, a process_stop helper) may start one.
 */
final class ProcessStarter {
    private final Launcher launcher;
    private final Map<String, String> childEnvironment;
    private final ExecutorService starter = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "hmp-proc-starter");
        thread.setDaemon(true);
        return thread;
    });

    /** @param childEnvironment the allow-listed environment every child gets, before its marker */
    ProcessStarter(Launcher launcher, Map<String, String> childEnvironment) {
        this.launcher = Objects.requireNonNull(launcher, "launcher");
        this.childEnvironment = Objects.requireNonNull(childEnvironment, "childEnvironment");
    }

    /** Starts the process on the starter thread and waits for it to be started; {@code marker} is its variable's value. */
    Process start(ProcessSpec spec, String marker) throws IOException {
        Future<Process> started;
        try {
            started = starter.submit(() -> builder(spec, marker).start());
        } catch (RejectedExecutionException e) {
            throw new IOException("the process runner is closed", e);
        }
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return started.get();
                } catch (InterruptedException e) {
                    interrupted = true;   // the process may be starting: wait for it, so it is never untracked
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof IOException io) throw io;
                    if (e.getCause() instanceof RuntimeException re) throw re;
                    throw new IOException(e.getCause());
                }
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    private ProcessBuilder builder(ProcessSpec spec, String marker) {
        ProcessBuilder builder = new ProcessBuilder(launcher.argv(spec))
                .directory(spec.workingDirectory().toFile())
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Map<String, String> env = builder.environment();
        env.clear();
        env.putAll(childEnvironment);
        env.put(ProcessRunner.MARKER_VARIABLE, marker);
        return builder;
    }
}
