package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.ExternalCommand;
import dev.hmpagent.config.McpServerEntry;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server over streamable HTTP whose connection is reset in the middle of a call: the call fails at once, said as a
 * reset, not after its whole timeout_s as a timeout. The server is a few lines over a socket, answering the handshake
 * and the tool list with JSON and resetting the connection (SO_LINGER 0) on {@code tools/call}.
 */
@Timeout(60)
class McpHttpResetTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void a_connection_reset_mid_call_fails_the_call_at_once_as_a_reset() throws Exception {
        try (ServerSocket listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            List<String> methods = new CopyOnWriteArrayList<>();
            Thread server = new Thread(() -> serve(listening, methods), "fake-http-mcp");
            server.setDaemon(true);
            server.start();
            String url = "http://127.0.0.1:" + listening.getLocalPort() + "/mcp";
            try (McpServers servers = new McpServers(List.of(new McpServerEntry("web", "", List.of(), Map.of(), url,
                    Map.of(), Duration.ofSeconds(60))), name -> null)) {
                servers.startInBackground(e -> { });
                assertThat(servers.awaitSettled(Duration.ofSeconds(30))).isTrue();
                assertThat(servers.states()).as(servers.describe()).containsEntry("web", McpServers.State.READY);
                assertThat(methods).as("the client's version, as agent --version says it")
                        .contains("client " + dev.hmpagent.text.AppVersion.current()).doesNotContain("client dev");
                ExternalCommand fetch = (ExternalCommand) servers.find("mcp.web.fetch").orElseThrow();
                CompletableFuture<CommandOutcome> done = new CompletableFuture<>();
                long began = System.nanoTime();

                fetch.start(new Args("mcp.web.fetch", "{}", (ObjectNode) JSON.readTree("{}")), null, 3, done::complete);
                CommandOutcome outcome = done.get(30, TimeUnit.SECONDS);

                assertThat(Duration.ofNanos(System.nanoTime() - began)).as("at once, not at timeout_s (60 s)")
                        .isLessThan(Duration.ofSeconds(10));
                assertThat(methods).contains("tools/call");
                assertThat(outcome.code()).isEqualTo("EOFFLINE");
                assertThat(outcome.result()).isEqualTo("the connection to mcp server web (" + url + ") was reset"
                        + " during mcp.web.fetch; the call did not complete");
            }
        }
    }

    /** Serves each connection: JSON answers to the handshake and the list, a reset to a call. */
    private static void serve(ServerSocket listening, List<String> methods) {
        while (!listening.isClosed()) {
            try {
                Socket s = listening.accept();
                Thread t = new Thread(() -> connection(s, methods));
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;   // the test closed the socket
            }
        }
    }

    private static void connection(Socket socket, List<String> methods) {
        try (socket) {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            while (true) {
                String head = head(in);
                if (head == null) return;
                int length = 0;
                for (String line : head.split("\r\n")) {
                    if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                        length = Integer.parseInt(line.substring(15).strip());
                    }
                }
                byte[] body = in.readNBytes(length);
                if (head.startsWith("GET") || head.startsWith("DELETE")) {
                    out.write("HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n".getBytes(
                            StandardCharsets.US_ASCII));
                    out.flush();
                    continue;
                }
                JsonNode message = JSON.readTree(body);
                String method = message.path("method").asText();
                methods.add(method);
                if (method.equals("initialize")) {
                    methods.add("client " + message.path("params").path("clientInfo").path("version").asText());
                }
                if (method.equals("tools/call")) {   // the answer's stream begins, then RST (SO_LINGER 0): a reset
                    out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
                            + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    String ping = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                            + "\"params\":{\"level\":\"info\",\"data\":\"working\"}}\n\n";
                    out.write((Integer.toHexString(ping.length()) + "\r\n" + ping + "\r\n").getBytes(
                            StandardCharsets.UTF_8));
                    out.flush();
                    socket.setSoLinger(true, 0);
                    return;
                }
                String answer = switch (method) {
                    case "initialize" -> "{\"protocolVersion\":" + message.path("params").path("protocolVersion")
                            + ",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"reset\",\"version\":\"1\"}}";
                    case "tools/list" -> "{\"tools\":[{\"name\":\"fetch\",\"inputSchema\":{\"type\":\"object\"}}]}";
                    default -> null;
                };
                if (answer == null) {
                    out.write("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                } else {
                    byte[] json = ("{\"jsonrpc\":\"2.0\",\"id\":" + message.get("id") + ",\"result\":" + answer + "}")
                            .getBytes(StandardCharsets.UTF_8);
                    out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + json.length
                            + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(json);
                }
                out.flush();
            }
        } catch (IOException e) {
            // the client went away: this connection is over
        }
    }

    /** The request line and headers, or null at the end of the stream. */
    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        for (int b = in.read(); b >= 0; b = in.read()) {
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
            if (matched == 4) return head.toString(StandardCharsets.US_ASCII);
        }
        return null;
    }
}
