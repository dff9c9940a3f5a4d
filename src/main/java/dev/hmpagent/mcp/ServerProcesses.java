package dev.hmpagent.mcp;

import io.modelcontextprotocol.client.McpSyncClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A stdio server's process: whether its command can run, and how it is stopped with everything it started. */
final class ServerProcesses {
    private static final long KILL_GRACE_MS = 2000;

    private ServerProcesses() { }

    /** Whether {@code command} names an executable file, itself or on the PATH (it is started without a shell). */
    static boolean runnable(String command) {
        if (command.contains("/")) return java.nio.file.Files.isExecutable(java.nio.file.Path.of(command));
        String path = System.getenv("PATH");
        if (path == null) return false;
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, command))) return true;
        }
        return false;
    }

    /** Closes {@code c} and kills the tree of {@code p} (SIGTERM, then SIGKILL after a grace). */
    static void stop(McpSyncClient c, ProcessHandle p) {
        List<ProcessHandle> tree = new ArrayList<>();
        if (p != null) {
            p.descendants().forEach(tree::add);
            tree.add(p);
        }
        try {
            if (c != null) c.close();
        } catch (RuntimeException e) {
            // closing is best effort: the process tree is killed below whatever the client says
        }
        tree.forEach(ProcessHandle::destroy);
        long deadline = System.currentTimeMillis() + KILL_GRACE_MS;
        for (ProcessHandle h : tree) {
            try {
                h.onExit().get(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                h.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                h.destroyForcibly();
            }
        }
    }

}
