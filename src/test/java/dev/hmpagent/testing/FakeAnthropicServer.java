package dev.hmpagent.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import mockwebserver3.MockResponse;
import mockwebserver3.MockResponseBody;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okio.BufferedSink;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A scripted Anthropic Messages API on a real socket, answering in the documented wire format: the event stream
 * (message_start with usage, content_block_start, ping, content_block_delta, content_block_stop, message_delta with
 * stop_reason and usage, message_stop), whole messages, error bodies ({@code {"type":"error","error":{...}}}) and
 * model descriptions. Replies are served in the order queued. The static methods build single events, to script
 * anything else with {@link #events}.
 */
public final class FakeAnthropicServer implements AutoCloseable {
    public static final String MODEL = "claude-test-model";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final MockWebServer server = new MockWebServer();
    private final CountDownLatch released = new CountDownLatch(1);

    public FakeAnthropicServer() throws IOException {
        server.start();
    }

    /** The API's base URL, without /v1 (as Anthropic's own, https://api.anthropic.com). */
    public String baseUrl() {
        String url = server.url("/").toString();
        return url.substring(0, url.length() - 1);
    }

    // ---- single events ------------------------------------------------------------------------

    /** One server-sent event: its name, then its data, then the blank line that ends it. */
    public static String event(String name, String data) {
        return "event: " + name + "\ndata: " + data + "\n\n";
    }

    public static String messageStart(int inputTokens) {
        return messageStart(inputTokens, 0, 0);
    }

    /** message_start: the empty message with the model and the prompt's usage (output_tokens is 1 so far). */
    public static String messageStart(int inputTokens, int cacheCreationTokens, int cacheReadTokens) {
        return event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_test01\",\"type\":\"message\","
                + "\"role\":\"assistant\",\"content\":[],\"model\":\"" + MODEL + "\",\"stop_reason\":null,"
                + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":" + inputTokens + ",\"cache_creation_input_tokens\":"
                + cacheCreationTokens + ",\"cache_read_input_tokens\":" + cacheReadTokens + ",\"output_tokens\":1}}}");
    }

    public static String textBlockStart(int index) {
        return event("content_block_start", "{\"type\":\"content_block_start\",\"index\":" + index
                + ",\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
    }

    public static String ping() {
        return event("ping", "{\"type\": \"ping\"}");
    }

    public static String textDelta(int index, String text) {
        return event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":" + index
                + ",\"delta\":{\"type\":\"text_delta\",\"text\":" + quote(text) + "}}");
    }

    public static String blockStop(int index) {
        return event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":" + index + "}");
    }

    /** message_delta: the stop reason and the cumulative output tokens. */
    public static String messageDelta(String stopReason, int outputTokens) {
        return event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"" + stopReason
                + "\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":" + outputTokens + "}}");
    }

    public static String messageStop() {
        return event("message_stop", "{\"type\":\"message_stop\"}");
    }

    /** The error event of a stream that broke off, e.g. ("overloaded_error", "Overloaded"). */
    public static String errorEvent(String type, String message) {
        return event("error", errorBody(type, message));
    }

    /** Anthropic's error shape, as a body or an event's data. */
    public static String errorBody(String type, String message) {
        return "{\"type\":\"error\",\"error\":{\"type\":\"" + type + "\",\"message\":" + quote(message)
                + "},\"request_id\":\"req_test01\"}";
    }

    /** The documented sample stream: the text in up to three deltas of one text block, with a ping before them. */
    public static String sampleStream(String text, int inputTokens, int outputTokens, String stopReason) {
        StringBuilder s = new StringBuilder(messageStart(inputTokens)).append(textBlockStart(0)).append(ping());
        for (String piece : pieces(text)) s.append(textDelta(0, piece));
        return s.append(blockStop(0)).append(messageDelta(stopReason, outputTokens)).append(messageStop()).toString();
    }

    private static List<String> pieces(String text) {
        List<String> out = new ArrayList<>();
        int step = Math.max(1, (text.length() + 2) / 3);
        for (int i = 0; i < text.length(); i += step) out.add(text.substring(i, Math.min(text.length(), i + step)));
        return out;
    }

    /**
     * A stream that makes native tool calls: {@code text} in a text block (none when empty), then each call as a
     * tool_use block whose input comes in input_json_delta fragments, stop reason tool_use.
     */
    public static String toolUseStream(String text, dev.hmpagent.llm.ToolCall... calls) {
        StringBuilder s = new StringBuilder(messageStart(10));
        int index = 0;
        if (!text.isEmpty()) {
            s.append(textBlockStart(index)).append(textDelta(index, text)).append(blockStop(index));
            index++;
        }
        for (dev.hmpagent.llm.ToolCall call : calls) {
            s.append(event("content_block_start", "{\"type\":\"content_block_start\",\"index\":" + index
                    + ",\"content_block\":{\"type\":\"tool_use\",\"id\":" + quote(call.id()) + ",\"name\":"
                    + quote(call.name()) + ",\"input\":{}}}"));
            for (String piece : FakeOpenAiServer.thirds(call.argumentsJson())) {
                s.append(event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":" + index
                        + ",\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":" + quote(piece) + "}}"));
            }
            s.append(blockStop(index++));
        }
        return s.append(messageDelta("tool_use", 5)).append(messageStop()).toString();
    }

    // ---- queued replies ----------------------------------------------------------------------

    /** Queues a 200 event stream of the given events, as given. */
    public FakeAnthropicServer events(String... events) {
        return enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/event-stream; charset=utf-8")
                .body(String.join("", events)).build());
    }

    /** Queues the documented sample stream of {@code text}, ending with stop reason end_turn. */
    public FakeAnthropicServer streamed(String text, int inputTokens, int outputTokens) {
        return events(sampleStream(text, inputTokens, outputTokens, "end_turn"));
    }

    /** Queues a whole (non-streamed) message of one text block, stop reason end_turn. */
    public FakeAnthropicServer message(String text, int inputTokens, int outputTokens) {
        return json(200, "{\"id\":\"msg_test02\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"" + MODEL
                + "\",\"content\":[{\"type\":\"text\",\"text\":" + quote(text) + "}],\"stop_reason\":\"end_turn\","
                + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":" + inputTokens + ",\"output_tokens\":"
                + outputTokens + "}}");
    }

    /** Queues the model description a probe asks for. */
    public FakeAnthropicServer modelInfo() {
        return json(200, "{\"type\":\"model\",\"id\":\"" + MODEL + "\",\"display_name\":\"Claude Test\","
                + "\"created_at\":\"2025-02-19T00:00:00Z\"}");
    }

    /** Queues an error status in Anthropic's shape, with the given headers as name, value, name, value... */
    public FakeAnthropicServer error(int code, String type, String message, String... headers) {
        return json(code, errorBody(type, message), headers);
    }

    /** Queues a JSON body with the given status and headers (name, value, name, value...). */
    public FakeAnthropicServer json(int code, String body, String... headers) {
        MockResponse.Builder response = new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json");
        for (int i = 0; i + 1 < headers.length; i += 2) response.setHeader(headers[i], headers[i + 1]);
        return enqueue(response.body(body).build());
    }

    /** Queues a stream that sends {@code first} and then holds the connection open until {@link #close()}. */
    public FakeAnthropicServer stalled(String first) {
        return streamBody(sink -> {
            sink.writeUtf8(first);
            sink.flush();
            await(0);
        });
    }

    /** Queues a stream that sends {@code first} and then a ping every 50 ms until {@link #close()}: it never ends. */
    public FakeAnthropicServer pingsForever(String first) {
        return streamBody(sink -> {
            sink.writeUtf8(first);
            sink.flush();
            while (!await(50)) {
                sink.writeUtf8(ping());
                sink.flush();
            }
        });
    }

    /**
     * Queues a runaway reply: deltas of 1 KiB of varied text, up to 64 MiB, never a message_stop, until the client
     * closes the connection, which counts {@code closed} down.
     */
    public FakeAnthropicServer runaway(CountDownLatch closed) {
        return streamBody(sink -> {
            try {
                sink.writeUtf8(messageStart(10)).writeUtf8(textBlockStart(0));
                for (int i = 0; i < 64 * 1024; i++) {
                    String line = "line " + i + " of a reply that does not stop. ";
                    sink.writeUtf8(textDelta(0, line.repeat(1024 / line.length() + 1).substring(0, 1024)));
                    if (i % 64 == 0) sink.flush();
                }
                sink.flush();
            } catch (IOException e) {
                closed.countDown();   // the client closed the connection
                throw e;
            }
        });
    }

    public FakeAnthropicServer enqueue(MockResponse response) {
        server.enqueue(response);
        return this;
    }

    private FakeAnthropicServer streamBody(Writer writer) {
        MockResponseBody body = new MockResponseBody() {
            @Override
            public long getContentLength() { return -1; }

            @Override
            public void writeTo(BufferedSink sink) throws IOException {
                writer.write(sink);
            }
        };
        return enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/event-stream").body(body).build());
    }

    /** Waits for {@link #close()}, at most {@code millis} (0: no limit); true once closed. */
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

    private interface Writer {
        void write(BufferedSink sink) throws IOException;
    }

    // ---- what arrived ------------------------------------------------------------------------

    /** The next request the server received, with its JSON body (missing for a GET); fails after 10 s without one. */
    public Received take() throws InterruptedException, IOException {
        RecordedRequest r = server.takeRequest(10, TimeUnit.SECONDS);
        if (r == null) throw new AssertionError("the fake Anthropic server received no request");
        String body = r.getBody() == null ? "" : r.getBody().utf8();
        return new Received(r, body.isEmpty() ? MissingNode.getInstance() : JSON.readTree(body));
    }

    public int requestCount() {
        return server.getRequestCount();
    }

    /** A request: its method, path and headers, and its JSON body. */
    public record Received(RecordedRequest request, JsonNode body) {
        public String header(String name) { return request.getHeaders().get(name); }

        public String path() { return request.getUrl().encodedPath(); }
    }

    private static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        released.countDown();
        server.close();
    }
}
