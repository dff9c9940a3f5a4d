package dev.hmpagent.llm.openai;

import dev.hmpagent.llm.wire.ReplyException;
import dev.hmpagent.llm.wire.SseEventParser;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.FatalLlmException;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.llm.Usage;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * An {@link LlmClient} for any OpenAI-compatible {@code /chat/completions} server (OpenAI,
 * Ollama's {@code /v1}, llama.cpp, vLLM). Streams when asked; falls back to non-streaming for
 * the rest of its life when a server rejects the streaming request with HTTP 400.
 */
public final class OpenAiClient implements LlmClient {
    private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
    private static final long ERROR_BODY_LIMIT = 16 * 1024;
    /** The longest reply text kept (4 Mi characters); a runaway reply is cut there, as if by max_tokens. */
    static final int MAX_REPLY_CHARS = 4 * 1024 * 1024;
    /** The largest non-streaming body read; a bigger one is a retryable bad_response. */
    static final long MAX_BODY_BYTES = 16L * 1024 * 1024;
    /** Longer call deadlines are cut to this, so nanosecond arithmetic cannot overflow. */
    private static final Duration MAX_CALL_DEADLINE = Duration.ofDays(365);

    private final OpenAiSettings settings;
    /**
     * Made at the first call, not with the client: building an OkHttpClient sets up TLS, reading the JDK's trust
     * store (about a third of the way to the prompt), which no start needs before the agent first thinks.
     */
    private final Supplier<OkHttpClient> http;
    private final HttpUrl url;
    private final String endpoint;
    private final OpenAiWire wire = new OpenAiWire();
    private final OpenAiErrors errors;
    private final AtomicBoolean streaming;
    private final AtomicReference<InFlight> inFlight = new AtomicReference<>();

    public OpenAiClient(OpenAiSettings settings) {
        this(settings, Clock.systemUTC());
    }

    public OpenAiClient(OpenAiSettings settings, Clock clock) {
        this(settings, () -> httpClient(settings), clock);
    }

    /** For tests and for sharing a connection pool; the given client's timeouts apply. */
    public OpenAiClient(OpenAiSettings settings, OkHttpClient http, Clock clock) {
        this(settings, constant(Objects.requireNonNull(http, "http")), clock);
    }

    /** With the OkHttpClient {@code http} makes, asked once, at the first call. */
    OpenAiClient(OpenAiSettings settings, Supplier<OkHttpClient> http, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.http = new Once<>(Objects.requireNonNull(http, "http"));
        Objects.requireNonNull(clock, "clock");
        String base = stripTrailingSlashes(settings.baseUrl().strip());
        HttpUrl parsedBase = HttpUrl.parse(base);
        if (parsedBase == null) {
            throw new IllegalArgumentException("llm.base_url is not an http(s) URL: " + base);
        }
        this.url = HttpUrl.get(base + "/chat/completions");
        this.endpoint = stripTrailingSlashes(parsedBase.newBuilder().username("").password("").query(null).build().toString());
        this.errors = new OpenAiErrors(endpoint, parsedBase.host(), settings.apiKey(), settings.model(),
                settings.readTimeout(), clock);
        this.streaming = new AtomicBoolean(settings.stream());
    }

    /** An OkHttpClient with the settings' timeouts. */
    static OkHttpClient httpClient(OpenAiSettings settings) {
        return new OkHttpClient.Builder()
                .connectTimeout(settings.connectTimeout())
                .readTimeout(settings.readTimeout())
                .writeTimeout(settings.readTimeout())
                .build();
    }

    @Override
    public Completion complete(LlmRequest request, StreamListener listener) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(listener, "listener");
        InFlight current = new InFlight(System.nanoTime() + deadlineNanos(settings.callDeadline()));
        inFlight.set(current);
        try {
            if (!streaming.get()) return send(request, listener, false, current);
            try {
                return send(request, listener, true, current);
            } catch (FatalLlmException e) {
                if (!e.kind().equals("http_400")) throw e;
            }
            Completion fallback = send(request, listener, false, current);
            if (!fallback.interrupted()) streaming.set(false);
            return fallback;
        } finally {
            inFlight.compareAndSet(current, null);
        }
    }

    @Override
    public void cancel() {
        InFlight current = inFlight.get();
        if (current != null) current.cancel();
    }

    @Override
    public String endpoint() { return endpoint; }

    @Override
    public String model() { return settings.model(); }

    /** Whether the next call will ask for a stream (false after a streaming fallback). */
    boolean streaming() { return streaming.get(); }

    /**
     * One HTTP exchange within what is left of the call deadline. OkHttp cancels the call when
     * that runs out; a cancelled call the user did not cancel is therefore the deadline.
     */
    private Completion send(LlmRequest request, StreamListener listener, boolean stream, InFlight current) {
        long remaining = current.deadlineAt() - System.nanoTime();
        if (remaining <= 0) throw errors.deadline(settings.callDeadline(), "", null);
        Call call = http.get().newCall(httpRequest(request, stream));
        call.timeout().timeout(remaining, TimeUnit.NANOSECONDS);
        current.attach(call);
        StreamAccumulator partial = new StreamAccumulator(wire, MAX_REPLY_CHARS);
        try (Response response = call.execute()) {
            if (!response.isSuccessful()) {
                String body = response.peekBody(ERROR_BODY_LIMIT).string();
                String message = wire.errorMessage(body);
                throw errors.http(response.code(), response.headers(), message != null ? message : body,
                        wire.quotaExhausted(body));
            }
            ResponseBody body = response.body();
            MediaType type = body.contentType();
            BodyFormat format = BodyFormat.of(type, body.source(), stream ? BodyFormat.EVENT_STREAM : BodyFormat.JSON);
            if (format == BodyFormat.OTHER) throw errors.contentType(response.code(), describe(type));
            if (format == BodyFormat.EVENT_STREAM) {
                readStream(body.source(), partial, listener);
                return completion(request, partial.reply(), false);
            }
            Reply reply = cut(wire.parseReply(readCapped(body.source())));
            if (!reply.text().isEmpty()) listener.onDelta(reply.text());
            return completion(request, reply, false);
        } catch (IOException e) {
            if (current.cancelled()) return completion(request, partial.reply(), true);
            if (call.isCanceled()) throw errors.deadline(settings.callDeadline(), partial.reply().text(), e);
            throw errors.io(e, partial.reply().text());
        }
    }

    /** A whole JSON body, refused beyond {@link #MAX_BODY_BYTES} so a server cannot exhaust memory. */
    private static String readCapped(BufferedSource source) throws IOException {
        if (source.request(MAX_BODY_BYTES + 1)) {
            throw ReplyException.malformed("the reply body is larger than " + MAX_BODY_BYTES / (1024 * 1024)
                    + " MB; it was not read", null);
        }
        return source.readUtf8();
    }

    /** A whole reply longer than {@link #MAX_REPLY_CHARS}, cut there as a stream would be. */
    private static Reply cut(Reply reply) {
        if (reply.text().length() <= MAX_REPLY_CHARS) return reply;
        return new Reply(reply.text().substring(0, MAX_REPLY_CHARS), reply.model(), StreamAccumulator.CUT, reply.usage());
    }

    private static long deadlineNanos(Duration deadline) {
        return (deadline.compareTo(MAX_CALL_DEADLINE) > 0 ? MAX_CALL_DEADLINE : deadline).toNanos();
    }

    /** The type and subtype, or null when the server sent no Content-Type. */
    private static String describe(MediaType type) {
        return type == null ? null : type.type() + "/" + type.subtype();
    }

    private static void readStream(BufferedSource source, StreamAccumulator acc, StreamListener listener)
            throws IOException {
        SseEventParser sse = new SseEventParser();
        String line;
        while (!acc.done() && (line = SseEventParser.readLine(source)) != null) {
            String data = sse.line(line);
            if (data != null) deliver(acc.accept(data), listener);
        }
        String rest = sse.finish();
        if (rest != null && !acc.done()) deliver(acc.accept(rest), listener);
        if (!acc.complete()) {
            throw new ReplyException(ReplyException.TRUNCATED, "stream ended without a finish_reason or [DONE]", null);
        }
    }

    private static void deliver(String delta, StreamListener listener) {
        if (!delta.isEmpty()) listener.onDelta(delta);
    }

    private Request httpRequest(LlmRequest request, boolean stream) {
        Request.Builder builder = new Request.Builder()
                .url(url)
                .header("Accept", stream ? "text/event-stream" : "application/json")
                .post(RequestBody.create(wire.requestBody(settings.model(), request, stream), JSON));
        if (!settings.apiKey().isEmpty()) builder.header("Authorization", "Bearer " + settings.apiKey());
        return builder.build();
    }

    private Completion completion(LlmRequest request, Reply reply, boolean interrupted) {
        String model = reply.model().isEmpty() ? settings.model() : reply.model();
        return new Completion(reply.text(), usage(request, reply), model, reply.finishReason(), interrupted);
    }

    /** The server's usage when it is plausible, otherwise an estimate (never 0: even an empty reply cost a token). */
    private static Usage usage(LlmRequest request, Reply reply) {
        ServerUsage server = reply.usage();
        boolean plausible = server != null && server.promptTokens() > 0
                && (server.completionTokens() > 0 || reply.text().isEmpty());
        if (plausible) return new Usage(server.promptTokens(), server.completionTokens(), false,
                Math.min(server.cachedTokens(), server.promptTokens()));
        return new Usage(Math.max(1, TokenEstimator.estimate(request.messages())),
                Math.max(1, TokenEstimator.estimate(reply.text())), true);
    }

    private static String stripTrailingSlashes(String s) {
        String out = s;
        while (out.endsWith("/")) out = out.substring(0, out.length() - 1);
        return out;
    }

    /**
     * The call of one {@link #complete}, its deadline ({@link System#nanoTime()} based), and
     * whether the user cancelled it; survives the fallback retry.
     */
    private static final class InFlight {
        private final long deadlineAt;
        private Call call;
        private boolean cancelled;

        InFlight(long deadlineAt) {
            this.deadlineAt = deadlineAt;
        }

        long deadlineAt() { return deadlineAt; }

        synchronized void attach(Call next) {
            call = next;
            if (cancelled) next.cancel();
        }

        synchronized void cancel() {
            cancelled = true;
            if (call != null) call.cancel();
        }

        synchronized boolean cancelled() { return cancelled; }
    }

    private static Supplier<OkHttpClient> constant(OkHttpClient http) {
        return () -> http;
    }

    /** What {@code make} returns, asked for once (the first caller makes it; the others wait for it). */
    private static final class Once<T> implements Supplier<T> {
        private final Supplier<T> make;
        private T made;   // guarded by this

        Once(Supplier<T> make) {
            this.make = make;
        }

        @Override
        public synchronized T get() {
            if (made == null) made = Objects.requireNonNull(make.get(), "made");
            return made;
        }
    }
}
