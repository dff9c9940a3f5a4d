package dev.hmpagent.process;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Starts a long-lived server the agent talks to over its pipes (an MCP server over stdio), with only the environment
 * it is given: the allow-list and its entry's variables, never the agent's own. The process room is the only one that
 * starts processes, so the MCP room asks here.
 */
public final class ServerStart {
    /**
     * Starts every server's process from one thread that lives as long as the JVM: a sandbox started with {@code
     * --die-with-parent} is killed when the thread that started it ends (the kernel's parent-death signal follows the
     * thread), and the threads that start servers (one per start, a restart's) end soon after.
     */
    private static final ExecutorService STARTER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "mcp-process-starter");
        t.setDaemon(true);
        return t;
    });

    private ServerStart() { }

    /**
     * Starts {@code command} with exactly {@code env} and waits until it started.
     *
     * @throws IOException          when it could not be started (no such program, not executable)
     * @throws InterruptedException when the caller was interrupted while it started
     */
    public static Process start(List<String> command, Map<String, String> env) throws IOException,
            InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().clear();
        builder.environment().putAll(env);
        try {
            return STARTER.submit(builder::start).get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) throw io;
            if (e.getCause() instanceof RuntimeException re) throw re;
            throw new IOException(e.getCause());
        }
    }
}
