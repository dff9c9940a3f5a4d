package dev.hmpagent.mcp;

import dev.hmpagent.text.Json;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;

/**
 * {@code agent mcp serve}'s server: the SDK's own server and stdio transport (no protocol code of ours) with the
 * tools of {@link ControlTools}, serving one client until its input ends.
 */
public final class ControlServer {
    static final String INSTRUCTIONS = "Steer and watch one hmp-agent: note sends it a message (as a peer, not a"
            + " person), status and log show what it is doing, halt stops it. Only a person can unlock it again.";

    private ControlServer() { }

    /**
     * Serves {@code controls} over {@code in} and {@code out} (the process's stdin and stdout: nothing else may write
     * to {@code out}) and returns once {@code in} ends, the client gone. The client is one peer: its notes are bounded
     * by one {@link PeerNoteLimits} on {@code clock}.
     */
    public static void serve(Controls controls, Clock clock, String version, InputStream in, OutputStream out)
            throws InterruptedException {
        Objects.requireNonNull(controls, "controls");
        CountDownLatch ended = new CountDownLatch(1);
        McpJsonMapper json = new JacksonMcpJsonMapper(Json.mapper());
        StdioServerTransportProvider transport = new StdioServerTransportProvider(json,
                new EndWatch(in, ended), out);
        McpSyncServer server = McpServer.sync(transport)
                .serverInfo("hmp-agent", version)
                .instructions(INSTRUCTIONS)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .jsonMapper(json)
                .tools(ControlTools.all(controls, json, new PeerNoteLimits(clock)))
                // our own reading of the arguments says which one is wrong and what it was, in one line
                .validateToolInputs(false)
                // each call runs as its message is read, in order: a note then a halt land in that order, and every
                // call read before the input ends is answered before the server closes
                .immediateExecution(true)
                .build();
        try {
            ended.await();
        } finally {
            server.closeGracefully();
        }
    }

    /** The client's input, which counts {@code ended} down when it ends, fails or is closed. */
    private static final class EndWatch extends FilterInputStream {
        private final CountDownLatch ended;

        EndWatch(InputStream in, CountDownLatch ended) {
            super(Objects.requireNonNull(in, "in"));
            this.ended = ended;
        }

        @Override
        public int read() throws IOException {
            return watch(() -> super.read());
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return watch(() -> super.read(b, off, len));
        }

        @Override
        public void close() throws IOException {
            ended.countDown();
            super.close();
        }

        private int watch(Read read) throws IOException {
            try {
                int n = read.read();
                if (n < 0) ended.countDown();
                return n;
            } catch (IOException e) {
                ended.countDown();
                throw e;
            }
        }

        @FunctionalInterface
        private interface Read {
            int read() throws IOException;
        }
    }
}
