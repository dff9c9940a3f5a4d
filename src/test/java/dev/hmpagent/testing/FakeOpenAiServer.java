package dev.hmpagent.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockResponseBody;
import mockwebserver3.MockWebServer;
import mockwebserver3.QueueDispatcher;
import mockwebserver3.RecordedRequest;
import okio.BufferedSink;

/**
 * A scripted OpenAI-compatible server on a real socket. Step 5's comparison mini-requests (hybrid and llm modes) are
 * answered apart, with {@link #judgement} (by default "yes, new"), and {@link #take()} and {@link #requestCount()}
 * skip them: a scripted reply is never spent on one. {@link #comparisons()} counts them.
 */
public final class FakeOpenAiServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final MockWebServer server = new MockWebServer();
    private final CountDownLatch released = new CountDownLatch(1);
    private final QueueDispatcher queue = new QueueDispatcher();
    private final java.util.concurrent.atomic.AtomicInteger comparisons = new java.util.concurrent.atomic.AtomicInteger();
    /** When set, answers every main request in place of the queue (an endless script). */
    private volatile java.util.function.Function<RecordedRequest, MockResponse> script;
    /** The comparison answer's text (the JSON the model would write). */
    public volatile String judgement = "{\"new_thoughts\": \"yes\", \"novelty\": 0.9, \"new_ideas\": [],"
            + " \"refined_ideas\": [], \"discarded_ideas\": []}";

    /** The body {@code GET /models} answers (an OpenAI model list), or null for 404; never a queued reply. */
    public volatile String modelList;
    /**
     * The body {@code GET /props} answers (llama.cpp's server properties, where the agent reads the context window),
     * or null for 404 as OpenAI's API answers; never a queued reply, and not counted as a request of the cycle.
     */
    public volatile String props;
    private final java.util.concurrent.atomic.AtomicInteger propsAsked = new java.util.concurrent.atomic.AtomicInteger();

    public FakeOpenAiServer() throws IOException {
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
                if ("GET".equals(request.getMethod()) && request.getUrl().encodedPath().endsWith("/models")) {
                    String list = modelList;
                    return list == null ? statusResponse(404, "{\"error\": \"not found\"}")
                            : new MockResponse.Builder().setHeader("Content-Type", "application/json").body(list).build();
                }
                if ("GET".equals(request.getMethod()) && request.getUrl().encodedPath().equals("/props")) {
                    propsAsked.incrementAndGet();
                    String body = props;
                    return body == null ? statusResponse(404, "{\"error\": \"not found\"}")
                            : new MockResponse.Builder().setHeader("Content-Type", "application/json").body(body).build();
                }
                if (isComparison(request)) {
                    comparisons.incrementAndGet();
                    comparisonBodies.add(request.getBody() == null ? "" : request.getBody().utf8());
                    return comparisonAnswer();
                }
                java.util.function.Function<RecordedRequest, MockResponse> s = script;
                return s != null ? s.apply(request) : queue.dispatch(request);
            }
        });
        server.start();
    }

    private static boolean isComparison(RecordedRequest r) {
        try {
            JsonNode body = JSON.readTree(r.getBody() == null ? "" : r.getBody().utf8());
            return body != null && isComparisonBody(body);
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether a chat request's body is step 5's comparison, in either form (its first or its last message says so). */
    public static boolean isComparisonBody(JsonNode body) {
        JsonNode messages = body.path("messages");
        String judge = dev.hmpagent.stagnation.LlmComparator.SYSTEM_PROMPT;
        return messages.path(0).path("content").asText("").startsWith(judge)
                || messages.path(messages.size() - 1).path("content").asText("").startsWith(judge);
    }

    private MockResponse comparisonAnswer() {
        String body = "{\"id\":\"c\",\"model\":\"test-model\",\"choices\":[{\"index\":0,\"message\":{\"role\":"
                + "\"assistant\",\"content\":" + quote(judgement) + "},\"finish_reason\":\"stop\"}],\"usage\":"
                + "{\"prompt_tokens\":50,\"completion_tokens\":20}}";
        return new MockResponse.Builder().setHeader("Content-Type", "application/json").body(body).build();
    }

    /** The bodies of the comparison requests, in the order they came. */
    public final java.util.List<String> comparisonBodies = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** How many comparison mini-requests arrived. */
    public int comparisons() {
        return comparisons.get();
    }

    public String baseUrl() {
        return server.url("/v1").toString();
    }

    /**
     * From now on every main request is answered by {@code next} (built with {@link #streamedResponse},
     * {@link #chantingResponse}, {@link #statusResponse}), not by the queue: a model scripted without end.
     */
    public FakeOpenAiServer script(java.util.function.Function<RecordedRequest, MockResponse> next) {
        this.script = java.util.Objects.requireNonNull(next, "next");
        return this;
    }

    /** Queues a streamed reply (SSE chunks, a usage chunk, [DONE]). */
    public FakeOpenAiServer streamed(String text, int promptTokens, int completionTokens) {
        return streamed(text, promptTokens, completionTokens, -1);
    }

    /** As {@link #streamed(String, int, int)}, its usage saying {@code cachedTokens} came from the prompt cache (-1: no word of it). */
    public FakeOpenAiServer streamed(String text, int promptTokens, int completionTokens, int cachedTokens) {
        queue.enqueue(streamedResponse(text, promptTokens, completionTokens, cachedTokens));
        return this;
    }

    /** A streamed reply: {@code text} in three pieces, finish_reason stop, usage (cached: -1 for no word of it), [DONE]. */
    public static MockResponse streamedResponse(String text, int promptTokens, int completionTokens, int cachedTokens) {
        StringBuilder body = new StringBuilder();
        int cut = Math.max(1, text.length() / 3);
        for (int i = 0; i < text.length(); i += cut) {
            body.append(chunk(text.substring(i, Math.min(text.length(), i + cut))));
        }
        body.append("data: {\"model\":\"test-model\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n");
        body.append("data: {\"model\":\"test-model\",\"choices\":[],\"usage\":{\"prompt_tokens\":").append(promptTokens)
                .append(",\"completion_tokens\":").append(completionTokens)
                .append(cachedTokens < 0 ? "" : ",\"prompt_tokens_details\":{\"cached_tokens\":" + cachedTokens + "}")
                .append("}}\n\n");
        body.append("data: [DONE]\n\n");
        return new MockResponse.Builder().setHeader("Content-Type", "text/event-stream").body(body.toString()).build();
    }

    /**
     * Queues a streamed reply that makes native tool calls: {@code text} in pieces, then each call as the OpenAI API
     * streams it (a first delta with its index, id and name, then its arguments in three fragments), finish_reason
     * tool_calls, usage, [DONE].
     */
    public FakeOpenAiServer streamedToolCalls(String text, dev.hmpagent.llm.ToolCall... calls) {
        queue.enqueue(toolCallsResponse(text, 10, calls));
        return this;
    }

    /** A streamed reply making native tool calls (see {@link #streamedToolCalls}), {@code promptTokens} in its usage. */
    public static MockResponse toolCallsResponse(String text, int promptTokens, dev.hmpagent.llm.ToolCall... calls) {
        StringBuilder body = new StringBuilder();
        if (!text.isEmpty()) body.append(chunk(text));
        for (int i = 0; i < calls.length; i++) {
            dev.hmpagent.llm.ToolCall call = calls[i];
            body.append(delta("{\"tool_calls\":[{\"index\":" + i + ",\"id\":" + quote(call.id())
                    + ",\"type\":\"function\",\"function\":{\"name\":" + quote(call.name()) + ",\"arguments\":\"\"}}]}"));
            for (String piece : thirds(call.argumentsJson())) {
                body.append(delta("{\"tool_calls\":[{\"index\":" + i + ",\"function\":{\"arguments\":" + quote(piece)
                        + "}}]}"));
            }
        }
        body.append("data: {\"model\":\"test-model\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":"
                + "\"tool_calls\"}]}\n\ndata: {\"model\":\"test-model\",\"choices\":[],\"usage\":{\"prompt_tokens\":"
                + promptTokens + ",\"completion_tokens\":5}}\n\ndata: [DONE]\n\n");
        return new MockResponse.Builder().setHeader("Content-Type", "text/event-stream").body(body.toString()).build();
    }

    /** Queues a whole (non-streaming) reply that makes native tool calls, finish_reason tool_calls. */
    public FakeOpenAiServer plainToolCalls(String text, dev.hmpagent.llm.ToolCall... calls) {
        StringBuilder array = new StringBuilder();
        for (dev.hmpagent.llm.ToolCall call : calls) {
            if (array.length() > 0) array.append(',');
            array.append("{\"id\":").append(quote(call.id())).append(",\"type\":\"function\",\"function\":{\"name\":")
                    .append(quote(call.name())).append(",\"arguments\":").append(quote(call.argumentsJson())).append("}}");
        }
        String body = "{\"id\":\"x\",\"model\":\"test-model\",\"choices\":[{\"index\":0,\"message\":{\"role\":"
                + "\"assistant\",\"content\":" + quote(text) + ",\"tool_calls\":[" + array + "]},\"finish_reason\":"
                + "\"tool_calls\"}],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5}}";
        queue.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/json").body(body).build());
        return this;
    }

    private static String delta(String delta) {
        return "data: {\"model\":\"test-model\",\"choices\":[{\"index\":0,\"delta\":" + delta
                + ",\"finish_reason\":null}]}\n\n";
    }

    /** {@code text} in three pieces (fewer when shorter), as a stream cuts it. */
    static java.util.List<String> thirds(String text) {
        java.util.List<String> out = new java.util.ArrayList<>();
        int step = Math.max(1, (text.length() + 2) / 3);
        for (int i = 0; i < text.length(); i += step) out.add(text.substring(i, Math.min(text.length(), i + step)));
        return out;
    }

    /** Queues a streamed reply whose whole {@code text} comes in one event (over 1 MB when the text is), then [DONE]. */
    public FakeOpenAiServer oneEvent(String text) {
        String body = chunk(text) + "data: {\"model\":\"test-model\",\"choices\":[{\"index\":0,\"delta\":{},"
                + "\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
        queue.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/event-stream").body(body).build());
        return this;
    }

    /** Queues a plain JSON (non-streaming) reply. */
    public FakeOpenAiServer plain(String text, int promptTokens, int completionTokens) {
        String body = "{\"id\":\"x\",\"model\":\"test-model\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":" + quote(text) + "},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":" + promptTokens
                + ",\"completion_tokens\":" + completionTokens + "}}";
        queue.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/json").body(body).build());
        return this;
    }

    /**
     * Queues a streamed reply that sends {@code first} and then holds the connection open until
     * {@link #close()}: a reply that is still in flight.
     */
    public FakeOpenAiServer stalled(String first) {
        MockResponseBody body = new MockResponseBody() {
            @Override
            public long getContentLength() { return -1; }

            @Override
            public void writeTo(BufferedSink sink) throws IOException {
                sink.writeUtf8(chunk(first));
                sink.flush();
                try {
                    released.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        queue.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/event-stream").body(body).build());
        return this;
    }

    /**
     * Queues a streamed reply whose connection closes after {@code text}, with neither a
     * finish_reason nor [DONE]: a truncated reply (the client fails it as "truncated").
     */
    public FakeOpenAiServer truncated(String text) {
        queue.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/event-stream").body(chunk(text)).build());
        return this;
    }

    /**
     * Queues a streamed reply that sends {@code first} and then only SSE keep-alive comments,
     * one every 50 ms, until {@link #close()}: it never finishes, so only a call deadline ends it.
     */
    public FakeOpenAiServer keepAliveOnly(String first) {
        MockResponseBody body = new MockResponseBody() {
            @Override
            public long getContentLength() { return -1; }

            @Override
            public void writeTo(BufferedSink sink) throws IOException {
                sink.writeUtf8(chunk(first));
                sink.flush();
                try {
                    while (!released.await(50, TimeUnit.MILLISECONDS)) {
                        sink.writeUtf8(": ping\n\n");
                        sink.flush();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        queue.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/event-stream").body(body).build());
        return this;
    }

    /** Queues a proxy's login page: HTTP 200, text/html (the client fails it as "content_type"). */
    /**
     * Queues a slow streamed reply: {@code first}, then a keep-alive every 20 ms until the client
     * hangs up, which counts {@code closed} down (or until {@link #close()}).
     */
    public FakeOpenAiServer slowUntilClientCloses(String first, CountDownLatch closed) {
        MockResponseBody body = new MockResponseBody() {
            @Override
            public long getContentLength() { return -1; }

            @Override
            public void writeTo(BufferedSink sink) throws IOException {
                try {
                    sink.writeUtf8(chunk(first));
                    sink.flush();
                    while (!released.await(20, TimeUnit.MILLISECONDS)) {
                        sink.writeUtf8(": still thinking\n\n");
                        sink.flush();
                    }
                } catch (IOException e) {
                    closed.countDown();   // the client closed the connection
                    throw e;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        queue.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/event-stream").body(body).build());
        return this;
    }

    /**
     * Streams {@code first}, then {@code loop} again and again (a model chanting until max_tokens) until the client
     * closes the connection, which counts {@code closed} down.
     */
    public FakeOpenAiServer chanting(String first, String loop, CountDownLatch closed) {
        queue.enqueue(chantingResponse(first, loop, closed, 1));
        return this;
    }

    /**
     * A chanting stream: {@code first}, then {@code loop} again and again, {@code pauseMs} apart (a fast or a slow
     * model), until the client closes the connection, which counts {@code closed} down.
     */
    public static MockResponse chantingResponse(String first, String loop, CountDownLatch closed, long pauseMs) {
        MockResponseBody body = new MockResponseBody() {
            @Override
            public long getContentLength() { return -1; }

            @Override
            public void writeTo(BufferedSink sink) throws IOException {
                try {
                    sink.writeUtf8(chunk(first));
                    for (int i = 0; i < 100_000; i++) {   // bounded, so a client that never cuts still ends the test
                        sink.writeUtf8(chunk(loop));
                        sink.flush();
                        Thread.sleep(pauseMs);
                    }
                } catch (IOException e) {
                    closed.countDown();   // the client closed the connection
                    throw e;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        return new MockResponse.Builder().setHeader("Content-Type", "text/event-stream").body(body).build();
    }

    public FakeOpenAiServer loginPage() {
        queue.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html; charset=utf-8")
                .body("<!doctype html><html><head><title>Sign in</title></head><body>Please sign in</body></html>").build());
        return this;
    }

    public FakeOpenAiServer status(int code, String body) {
        return status(code, body, new String[0]);
    }

    /** Queues an error status with a JSON body and the given headers, as name, value, name, value... */
    public FakeOpenAiServer status(int code, String body, String... headers) {
        queue.enqueue(statusResponse(code, body, headers));
        return this;
    }

    /** An error status with a JSON body and the given headers, as name, value, name, value... */
    public static MockResponse statusResponse(int code, String body, String... headers) {
        MockResponse.Builder response = new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json");
        for (int i = 0; i + 1 < headers.length; i += 2) response.setHeader(headers[i], headers[i + 1]);
        return response.body(body).build();
    }

    /** Queues OpenAI's answer for an account without quota or credit: HTTP 429, type and code insufficient_quota. */
    public FakeOpenAiServer insufficientQuota() {
        return status(429, "{\"error\":{\"message\":\"You exceeded your current quota, please check your plan and"
                + " billing details.\",\"type\":\"insufficient_quota\",\"param\":null,\"code\":\"insufficient_quota\"}}");
    }

    /**
     * Streams a runaway reply: chunks of 1 KiB of varied text, up to 64 MiB, until the client closes the connection,
     * which counts {@code closed} down. Never ends with a finish_reason or [DONE].
     */
    public FakeOpenAiServer runaway(CountDownLatch closed) {
        MockResponseBody body = new MockResponseBody() {
            @Override
            public long getContentLength() { return -1; }

            @Override
            public void writeTo(BufferedSink sink) throws IOException {
                try {
                    for (int i = 0; i < 64 * 1024; i++) {
                        String line = "line " + i + " of a reply that does not stop. ";
                        sink.writeUtf8(chunk(line.repeat(1024 / line.length() + 1).substring(0, 1024)));
                        if (i % 64 == 0) sink.flush();
                    }
                    sink.flush();
                } catch (IOException e) {
                    closed.countDown();   // the client closed the connection
                    throw e;
                }
            }
        };
        queue.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/event-stream").body(body).build());
        return this;
    }

    /** The next request the server received, as JSON (waits up to 10 s, then fails). */
    public Received take() throws InterruptedException, IOException {
        while (true) {
            RecordedRequest r = server.takeRequest(10, TimeUnit.SECONDS);
            if (r == null) throw new AssertionError("the fake LLM server received no request");
            if (!isComparison(r) && !r.getUrl().encodedPath().equals("/props")) return new Received(r, r.getBody() == null ? JSON.createObjectNode() : JSON.readTree(r.getBody().utf8()));
        }
    }

    /** Requests of the main cycle received (comparison mini-requests not counted). */
    public int requestCount() {
        return server.getRequestCount() - comparisons.get() - propsAsked.get();
    }

    /** A request: its headers and its JSON body. */
    public record Received(RecordedRequest request, JsonNode body) {
        public String system() { return body.path("messages").get(0).path("content").asText(); }

        public String user() { return body.path("messages").get(1).path("content").asText(); }
    }

    private static String chunk(String piece) {
        return "data: {\"model\":\"test-model\",\"choices\":[{\"index\":0,\"delta\":{\"content\":" + quote(piece)
                + "},\"finish_reason\":null}]}\n\n";
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
