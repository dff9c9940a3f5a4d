package dev.hmpagent.mcp;

import io.modelcontextprotocol.client.McpSyncClient;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;

/**
 * Everything about one MCP server's connection that changes while the agent runs, as one immutable value that
 * {@link McpConnection} swaps whole: a reader (context 0's list, {@code /mcp}, a call) sees one moment's state, reason,
 * tools and failures together, never the state of one start with the reason or the tools of another. Each change is a
 * method that returns the next value; the connection applies it atomically.
 *
 * @param state        where the server is
 * @param reason       why it failed ("" when it did not); kept while it starts again, so a call is told why
 * @param tools        the tools it listed last
 * @param failures     starts that failed or ended in a death since it was last ready: the back-off grows with it
 * @param generation   counts the starts: what an old process or transport reports after a restart is not this start's
 * @param settled      counted down when the current start settled (ready or failed); a new one for each restart
 * @param session      the client, transport and process of the current start
 * @param haltedBy     why a halt killed the server's process ("" when none did): its death is then said as such
 * @param endedInStart how the server ended during its start ("" while it runs): the start's failure then says it
 * @param firstJunk    the first line it wrote that is not JSON-RPC ("" before one): said once, and in a failed start
 * @param toldRefused  whether the person was told of a refused message (once per server)
 * @param toldJunk     whether the person was told of a line that is not JSON-RPC (once per server)
 * @param exiting      set when the agent exits: the server's end is then no failure, and it is not started again
 */
record ConnectionState(McpServers.State state, String reason, List<McpTool> tools, int failures, int generation,
                       CountDownLatch settled, Session session, String haltedBy, String endedInStart, String firstJunk,
                       boolean toldRefused, boolean toldJunk, boolean exiting) {
    ConnectionState {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(reason, "reason");
        tools = List.copyOf(tools);
        Objects.requireNonNull(settled, "settled");
        Objects.requireNonNull(session, "session");
    }

    /**
     * The client, its transport and the server's process of one start, each null until it is made.
     *
     * @param client    the SDK's client
     * @param transport the transport under it, which sends a halt's cancellations
     * @param process   a stdio server's process, once started
     */
    record Session(McpSyncClient client, CancellingTransport transport, ProcessHandle process) {
        static final Session NONE = new Session(null, null, null);
    }

    /** A server not started yet. */
    static ConnectionState starting() {
        return new ConnectionState(McpServers.State.STARTING, "", List.of(), 0, 0, new CountDownLatch(1),
                Session.NONE, "", "", "", false, false, false);
    }

    /** Whether it failed or was stopped: a failure or a death now changes nothing. */
    boolean over() {
        return state == McpServers.State.FAILED || state == McpServers.State.STOPPED;
    }

    /** The process of the current start (null before one). */
    ProcessHandle process() {
        return session.process();
    }

    /** The client of the current start (null before one). */
    McpSyncClient client() {
        return session.client();
    }

    /** A new start: what the old one's process and transport report from now on is dropped. */
    ConnectionState nextStart() {
        return with(state, reason, failures, generation + 1, settled, session, haltedBy, endedInStart, firstJunk);
    }

    /** Before a restart: the old client and process forgotten, a new latch, all the failed start said but its reason. */
    ConnectionState restarting() {
        return with(McpServers.State.STARTING, reason, failures, generation, new CountDownLatch(1), Session.NONE,
                haltedBy, "", "");
    }

    ConnectionState withSession(Session next) {
        return with(state, reason, failures, generation, settled, next, haltedBy, endedInStart, firstJunk);
    }

    ConnectionState withTools(List<McpTool> listed) {
        return new ConnectionState(state, reason, listed, failures, generation, settled, session, haltedBy,
                endedInStart, firstJunk, toldRefused, toldJunk, exiting);
    }

    /** A start that ended well: ready, no reason, no failures in a row (only from STARTING; else unchanged). */
    ConnectionState ready() {
        if (state != McpServers.State.STARTING) return this;
        return with(McpServers.State.READY, "", 0, generation, settled, session, haltedBy, endedInStart, firstJunk);
    }

    /** Failed for {@code why}, one more failure in a row; a server failed or stopped already stays as it is. */
    ConnectionState failed(String why) {
        if (over()) return this;
        return with(McpServers.State.FAILED, why, failures + 1, generation, settled, session, haltedBy, endedInStart,
                firstJunk);
    }

    /** Stopped: the agent closed or exits; it never starts again. */
    ConnectionState stopped() {
        return with(McpServers.State.STOPPED, reason, failures, generation, settled, session, haltedBy, endedInStart,
                firstJunk);
    }

    /** The server ended during its start, saying {@code why}. */
    ConnectionState endedInStart(String why) {
        return with(state, reason, failures, generation, settled, session, haltedBy, why, firstJunk);
    }

    /** A line that is not JSON-RPC: kept when it is the first. */
    ConnectionState junk(String line) {
        if (!firstJunk.isEmpty()) return this;
        return with(state, reason, failures, generation, settled, session, haltedBy, endedInStart, line);
    }

    /** A halt killed the process for {@code why} ("" once its death was said). */
    ConnectionState haltedBy(String why) {
        return with(state, reason, failures, generation, settled, session, why, endedInStart, firstJunk);
    }

    /** The person was told of the first line that is not JSON-RPC (when there was one). */
    ConnectionState junkTold() {
        if (firstJunk.isEmpty()) return this;
        return new ConnectionState(state, reason, tools, failures, generation, settled, session, haltedBy,
                endedInStart, firstJunk, toldRefused, true, exiting);
    }

    /** The person was told of a refused message. */
    ConnectionState refusedTold() {
        return new ConnectionState(state, reason, tools, failures, generation, settled, session, haltedBy,
                endedInStart, firstJunk, true, toldJunk, exiting);
    }

    /** The agent exits: the server's end from now on is no failure. */
    ConnectionState exitingNow() {
        return new ConnectionState(state, reason, tools, failures, generation, settled, session, haltedBy,
                endedInStart, firstJunk, toldRefused, toldJunk, true);
    }

    private ConnectionState with(McpServers.State s, String why, int failed, int start, CountDownLatch latch,
                                 Session next, String halt, String ended, String junk) {
        return new ConnectionState(s, why, tools, failed, start, latch, next, halt, ended, junk, toldRefused, toldJunk,
                exiting);
    }
}
