package dev.hmpagent.mcp;

import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.config.McpServerEntry;
import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.text.Text;
import io.modelcontextprotocol.spec.McpError;
import java.util.Locale;

/**
 * What a server's failure is called, in our words: the SDK's and Reactor's texts ("Did not observe any item or
 * terminal signal within 60000ms in 'source(MonoDeferContextual)'", "MCP session with server terminated") never reach
 * the model, the database or the terminal; a line says what happened, to which server, and what to look at.
 */
final class McpWords {
    private McpWords() { }

    /** A size as a person reads it: "16 MB", "50.3 MB" (10^6 bytes each). */
    static String megabytes(long bytes) {
        double mb = bytes / 1_000_000.0;
        String s = String.format(Locale.ROOT, mb >= 100 ? "%.0f" : "%.1f", mb);
        return (s.endsWith(".0") ? s.substring(0, s.length() - 2) : s) + " MB";
    }

    /** A server's line for a terminal line: quoted, on one line, at most 120 characters, control characters as '?'. */
    static String quoted(String line) {
        return "\"" + Text.oneLine(line.replaceAll("\\p{Cntrl}", "?"), 120) + "\"";
    }

    /** The outcome of a call of {@code tool} that the SDK ended with {@code e}: its code, and one line of ours. */
    static CommandOutcome callFailed(McpServerEntry entry, String tool, Throwable e) {
        String call = "mcp." + entry.name() + "." + tool;
        McpError error = find(e, McpError.class);
        if (error != null && error.getJsonRpcError() != null) {
            if (error.getJsonRpcError().code() != null && error.getJsonRpcError().code() == StdioTransport.REFUSED) {
                return CommandOutcome.error(ErrorCode.EFBIG, call + " failed: " + error.getJsonRpcError().message()
                        + "; ask for less (a smaller page, a narrower query)");
            }
            return CommandOutcome.error(ErrorCode.EUNKNOWN, call + " failed: the server answered with an error: "
                    + Text.oneLine(String.valueOf(error.getJsonRpcError().message()), 300) + " (JSON-RPC error "
                    + error.getJsonRpcError().code() + ")");
        }
        if (timedOut(e)) {
            return CommandOutcome.error(ErrorCode.ETIMEDOUT, "mcp server " + entry.name() + " did not answer " + call
                    + " within " + Text.duration(entry.timeout()) + " (timeout_s); the call was given up: the server"
                    + " may be busy or hung, or the call may need a larger timeout_s");
        }
        if (reset(e)) return resetDuring(entry, tool);
        return CommandOutcome.error(ErrorCode.EOFFLINE, "mcp server " + entry.name() + " stopped answering during "
                + call + ": " + Text.oneLine(deepest(e), 200));
    }

    /** The outcome of a call of {@code tool} whose connection was reset. */
    static CommandOutcome resetDuring(McpServerEntry entry, String tool) {
        return CommandOutcome.error(ErrorCode.EOFFLINE, "the connection to mcp server " + entry.name() + " ("
                + entry.where() + ") was reset during mcp." + entry.name() + "." + tool + "; the call did not complete");
    }

    /**
     * Why a start failed, in a person's words: the SDK's own "Client failed to initialize by explicit API call" says
     * only that the handshake did not complete, so the line says that, the deepest cause the SDK kept, and what to
     * check: a stdio server's stdout, or a url server's address and status.
     */
    static String startFailed(McpServerEntry entry, Throwable e) {
        return startFailed(entry, e, advice(entry));
    }

    /**
     * Why a start failed, whole: how the server ended during it ({@code ended}, else {@link #startFailed}), the first
     * line it wrote that is not JSON-RPC ({@code junk}), the line of its stderr that says why ({@code said}, {@link
     * ServerStderr}), and for a package runner what it needs and the fix in agent.toml's words ({@link PackageRunners}).
     *
     * @param confined whether the server runs inside this run's sandbox
     */
    static String startFailure(McpServerEntry entry, boolean confined, RuntimeException e, String ended, String junk,
                               String said) {
        java.util.Optional<String> runner = PackageRunners.of(entry).map(r -> r.advice(entry, confined));
        // writing the handshake to a server that is gone fails ("Broken pipe") before its exit is seen: it exited
        String end = !ended.isEmpty() ? ended : GONE.matcher(deepest(e)).find() ? "exited" : "";
        String what = !end.isEmpty() ? "it " + end + " before completing MCP's initialize handshake"
                + (junk.isEmpty() ? "" : " (it wrote " + quoted(junk) + " on its stdout, which is not JSON-RPC)")
                : startFailed(entry, e, runner.isPresent() ? "" : advice(entry));
        String stderr = said.isBlank() ? "" : " (it said on stderr: \"" + Text.oneLine(said.replaceAll("\\p{Cntrl}",
                "?"), 200) + "\")";
        return what + stderr + runner.map(r -> "; " + r).orElse("");
    }

    /** What writing to a server whose process is gone fails with. */
    private static final java.util.regex.Pattern GONE = java.util.regex.Pattern.compile(
            "(?i)broken pipe|stream closed");

    /** As {@link #startFailed(McpServerEntry, Throwable)}, with {@code advice} ("" for none) after the cause. */
    private static String startFailed(McpServerEntry entry, Throwable e, String advice) {
        String top = message(e);
        if (!top.startsWith("Client failed to initialize")) {
            return Text.oneLine(timedOut(e) ? "no answer within " + Text.duration(McpConnection.START_TIMEOUT) : top,
                    200);
        }
        String deep = timedOut(e) ? "no answer in time" : deepest(e);
        return Text.oneLine("it did not complete MCP's initialize handshake (" + deep + ")"
                + (advice.isEmpty() ? "" : ": " + advice), 300);
    }

    /** What to check when a server does not answer as an MCP server. */
    static String advice(McpServerEntry entry) {
        return entry.stdio() ? "is it an MCP server, writing nothing but JSON-RPC on its stdout?"
                : "is " + entry.url() + " the address of an MCP endpoint (streamable HTTP), and is the server up?";
    }

    /** Whether the SDK gave up waiting (Reactor's timeout, a TimeoutException somewhere in the causes). */
    static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.util.concurrent.TimeoutException) return true;
            if (t.getMessage() != null && t.getMessage().contains("Did not observe any item")) return true;
        }
        return false;
    }

    /** Whether the connection was reset or cut (an HTTP server that closed it mid-call). */
    static boolean reset(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            if (t instanceof java.net.SocketException || t instanceof java.io.EOFException || m.contains("reset")
                    || m.contains("eof reached") || m.contains("connection closed") || m.contains("closed locally")
                    || m.contains("header parser received no bytes")) {
                return true;
            }
        }
        return false;
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) return type.cast(t);
        }
        return null;
    }

    /** The deepest cause's message (the SDK wraps what happened in its own words). */
    static String deepest(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        return message(root);
    }

    static String message(Throwable t) {
        return t.getMessage() == null || t.getMessage().isBlank() ? t.getClass().getSimpleName() : t.getMessage();
    }

    /** The first line a server wrote on its stdout that is not JSON-RPC, said once. */
    static String strayLine(String server, String line) {
        return "MCP server " + server + " wrote a line on its stdout that is not JSON-RPC: " + quoted(line)
                + "; it was dropped, as any more will be (its answers still arrive); a server should write its logs to"
                + " stderr";
    }

    /** A server ready again after failures, with {@code tools} tools. */
    static String back(String server, int tools) {
        return "MCP server " + server + " is back (" + tools + (tools == 1 ? " tool" : " tools") + ")";
    }

    /** The first failure of a run of them: why, and that the server is started again. */
    static String restarting(String server, String why) {
        return "MCP server " + server + " " + why + "; its tools (mcp." + server + ".*) are unavailable; restarting it"
                + " with back-off";
    }
}
