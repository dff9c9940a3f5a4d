package dev.hmpagent.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import mockwebserver3.MockResponse;
import mockwebserver3.MockResponseBody;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okio.BufferedSink;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A scripted Ollama server on a real socket, speaking the native API as Ollama documents it (docs/api.md,
 * docs/api/streaming.mdx, docs/api/errors.mdx): {@code /api/chat} streams NDJSON ({@code application/x-ndjson}), one
 * object a line, {@code "done": false} while text comes and a final {@code "done": true} object with done_reason,
 * durations and token counts; {@code "stream": false} gets one {@code application/json} object; failures are
 * {@code {"error": "..."}}, before the stream with an HTTP status, after it as a line. Replies are served in the
 * order queued, whatever the path.
 */
public final class FakeOllamaServer implements AutoCloseable {
    /** The model the fixtures name, as the documentation's samples do. */
    public static final String MODEL = "llama3.2";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final MockWebServer server = new MockWebServer();
    private final CountDownLatch released = new CountDownLatch(1);

    public FakeOllamaServer() throws IOException {
        server.start();
    }

    /** The server's root, e.g. {@code http://127.0.0.1:54321}. */
    public String baseUrl() {
        String url = server.url("/").toString();
        return url.substring(0, url.length() - 1);
    }

    // ---- lines ---------------------------------------------------------------------------------

    /** A stream line carrying a piece of the reply: {@code {"model", "created_at", "message", "done": false}}. */
    public static String chunk(String content) {
        ObjectNode line = head();
        line.putObject("message").put("role", "assistant").put("content", content);
        line.put("done", false);
        return write(line) + "\n";
    }

    /** A final line as documented: empty content, {@code "done": true}, done_reason, durations and counts. */
    public static String done(String doneReason, int promptEvalCount, int evalCount) {
        return write(finalObject("", doneReason, promptEvalCount, evalCount)) + "\n";
    }

    /** A final line with {@code prompt_eval_cached_count} (servers since 2026-08). */
    public static String doneCached(int promptEvalCount, int cachedCount, int evalCount) {
        ObjectNode line = finalObject("", "stop", promptEvalCount, evalCount);
        line.put("prompt_eval_cached_count", cachedCount);
        return write(line) + "\n";
    }

    /** A final line of an old server after a prompt cache hit: no {@code prompt_eval_count} at all. */
    public static String doneWithoutPromptCount(int evalCount) {
        ObjectNode line = finalObject("", "stop", 0, evalCount);
        line.remove("prompt_eval_count");
        return write(line) + "\n";
    }

    /** A line of a thinking model: {@code message.thinking} with no content. */
    public static String thinking(String thought) {
        ObjectNode line = head();
        line.putObject("message").put("role", "assistant").put("content", "").put("thinking", thought);
        line.put("done", false);
        return write(line) + "\n";
    }

    /**
     * A stream line carrying whole tool calls, as Ollama sends them: {@code message.tool_calls[].function} with its
     * name and its arguments as an object (as a string when {@code argumentsJson} is not JSON).
     */
    public static String toolCalls(dev.hmpagent.llm.ToolCall... calls) {
        ObjectNode line = head();
        ObjectNode message = line.putObject("message").put("role", "assistant").put("content", "");
        com.fasterxml.jackson.databind.node.ArrayNode array = message.putArray("tool_calls");
        for (dev.hmpagent.llm.ToolCall call : calls) {
            ObjectNode function = array.addObject().putObject("function").put("name", call.name());
            try {
                function.set("arguments", JSON.readTree(call.argumentsJson()));
            } catch (java.io.IOException e) {
                function.put("arguments", call.argumentsJson());
            }
        }
        line.put("done", false);
        return write(line) + "\n";
    }

    /** An error after the stream began, as a line of its own. */
    public static String errorLine(String message) {
        return write(JSON.createObjectNode().put("error", message)) + "\n";
    }

    /** A whole non-streaming reply, as documented for {@code "stream": false}. */
    public static String whole(String content, String doneReason, int promptEvalCount, int evalCount) {
        return write(finalObject(content, doneReason, promptEvalCount, evalCount));
    }

    private static ObjectNode head() {
        return JSON.createObjectNode().put("model", MODEL).put("created_at", "2023-08-04T08:52:19.385406455-07:00");
    }

    private static ObjectNode finalObject(String content, String doneReason, int promptEvalCount, int evalCount) {
        ObjectNode line = JSON.createObjectNode().put("model", MODEL).put("created_at", "2023-08-04T19:22:45.499127Z");
        line.putObject("message").put("role", "assistant").put("content", content);
        line.put("done", true).put("done_reason", doneReason).put("total_duration", 4883583458L)
                .put("load_duration", 1334875).put("prompt_eval_count", promptEvalCount)
                .put("prompt_eval_duration", 342546000).put("eval_count", evalCount).put("eval_duration", 4535599000L);
        return line;
    }

    // ---- replies -------------------------------------------------------------------------------

    /** Queues an NDJSON stream made of the given lines. */
    public FakeOllamaServer stream(String... lines) {
        return enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/x-ndjson")
                .body(String.join("", lines)).build());
    }

    /** Queues a streamed reply: {@code text} in three pieces, then a final line with the counts. */
    public FakeOllamaServer streamed(String text, int promptEvalCount, int evalCount) {
        StringBuilder body = new StringBuilder();
        int cut = Math.max(1, text.length() / 3);
        for (int i = 0; i < text.length(); i += cut) body.append(chunk(text.substring(i, Math.min(text.length(), i + cut))));
        return stream(body + done("stop", promptEvalCount, evalCount));
    }

    /** Queues a non-streaming reply. */
    public FakeOllamaServer plain(String text, int promptEvalCount, int evalCount) {
        return json(200, whole(text, "stop", promptEvalCount, evalCount));
    }

    /** Queues a JSON body with the status, and headers as name, value, name, value… */
    public FakeOllamaServer json(int code, String body, String... headers) {
        MockResponse.Builder response = new MockResponse.Builder().code(code)
                .setHeader("Content-Type", "application/json; charset=utf-8");
        for (int i = 0; i + 1 < headers.length; i += 2) response.setHeader(headers[i], headers[i + 1]);
        return enqueue(response.body(body).build());
    }

    /** Queues Ollama's failure: the status with {@code {"error": message}}. */
    public FakeOllamaServer error(int code, String message, String... headers) {
        return json(code, write(JSON.createObjectNode().put("error", message)), headers);
    }

    /** Queues what Ollama answers for a model it does not have. */
    public FakeOllamaServer modelNotFound(String model) {
        return error(404, "model '" + model + "' not found");
    }

    /** Queues a stream that sends {@code first} and then holds the connection open until {@link #close()}. */
    public FakeOllamaServer stalled(String first) {
        return enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/x-ndjson")
                .body(body(sink -> {
                    sink.writeUtf8(first);
                    sink.flush();
                    await(0);
                })).build());
    }

    /** Queues a stream that sends {@code first}, then a blank line every 50 ms until {@link #close()}: it never ends. */
    public FakeOllamaServer trickling(String first) {
        return enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/x-ndjson")
                .body(body(sink -> {
                    sink.writeUtf8(first);
                    sink.flush();
                    while (!await(50)) {
                        sink.writeUtf8("\n");
                        sink.flush();
                    }
                })).build());
    }

    /**
     * Queues a runaway stream: lines of {@code pieceChars} characters each, {@code pieces} of them, never done; counts
     * {@code closed} down when the client hangs up.
     */
    public FakeOllamaServer runaway(int pieceChars, int pieces, CountDownLatch closed) {
        String line = chunk("r".repeat(pieceChars));
        return enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/x-ndjson")
                .body(body(sink -> {
                    try {
                        for (int i = 0; i < pieces; i++) sink.writeUtf8(line);
                        sink.flush();
                    } catch (IOException e) {
                        closed.countDown();
                        throw e;
                    }
                })).build());
    }

    public FakeOllamaServer enqueue(MockResponse response) {
        server.enqueue(response);
        return this;
    }

    // ---- what arrived --------------------------------------------------------------------------

    /** The next request the server received, with its JSON body (waits up to 10 s, then fails). */
    public Received take() throws InterruptedException, IOException {
        RecordedRequest r = server.takeRequest(10, TimeUnit.SECONDS);
        if (r == null) throw new AssertionError("the fake Ollama server received no request");
        return new Received(r, JSON.readTree(r.getBody() == null ? "" : r.getBody().utf8()));
    }

    public int requestCount() {
        return server.getRequestCount();
    }

    /** A request: its method, path and headers, and its JSON body. */
    public record Received(RecordedRequest request, JsonNode body) {
        public String path() { return request.getUrl().encodedPath(); }

        public String header(String name) { return request.getHeaders().get(name); }

        public JsonNode options() { return body.path("options"); }
    }

    @Override
    public void close() {
        released.countDown();
        server.close();
    }

    // ---- plumbing ------------------------------------------------------------------------------

    private interface Writer {
        void writeTo(BufferedSink sink) throws IOException;
    }

    private static MockResponseBody body(Writer writer) {
        return new MockResponseBody() {
            @Override
            public long getContentLength() { return -1; }

            @Override
            public void writeTo(BufferedSink sink) throws IOException {
                writer.writeTo(sink);
            }
        };
    }

    /** Waits for {@link #close()}, at most {@code millis} (0: for ever); true once closed. */
    private boolean await(long millis) {
        try {
            if (millis == 0) {
                released.await();
                return true;
            }
            return released.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private static String write(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
