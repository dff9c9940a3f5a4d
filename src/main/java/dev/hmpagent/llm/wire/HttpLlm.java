package dev.hmpagent.llm.wire;

import dev.hmpagent.llm.CallCancel;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.FatalLlmException;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import java.io.IOException;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * A provider's client over HTTP, its skeleton written once: the OkHttpClient made at the first call (building one sets
 * up TLS, reading the JDK's trust store, which no start needs before the agent first thinks), each completion one
 * {@link HttpCalls#call} under its caller's {@link CallCancel} and deadline, the stream → non-stream fallback (a
 * server that refuses a streaming request is asked again at once without a stream, and is never asked for a stream
 * again), a probe's exchange, and what a completion names as its model. A provider supplies its wire format only:
 * {@link #send} (the request and how its reply is read) and its error mapping ({@link #wireErrors}, and the statuses
 * of its readings).
 */
public abstract class HttpLlm<S extends HttpSettings, E extends ProviderErrors> implements LlmClient {
    private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

    /** The provider's settings: where, the key, the model, streaming, the timeouts, and what else it has. */
    protected final S settings;
    /** The configured base URL, read once: what the provider's paths are resolved against. */
    protected final BaseUrl base;
    /** The provider's error mapping. */
    protected final E errors;
    private final HttpCalls calls;
    private final AtomicBoolean streaming;

    /**
     * @param http   makes the OkHttpClient, asked once, at the first call ({@link #madeFor} the settings' timeouts;
     *               {@link HttpCalls#constant} a given one, whose timeouts apply, for tests and a shared pool)
     * @param clock  for the times a server's Retry-After names
     * @param errors makes the provider's error mapping for this client
     * @throws IllegalArgumentException naming llm.base_url when the settings' base URL is not an http(s) URL
     */
    protected HttpLlm(S settings, Supplier<OkHttpClient> http, Clock clock, ProviderErrors.Maker<E> errors) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.base = BaseUrl.parse(settings.baseUrl());
        this.errors = errors.make(base.endpoint(), base.host(), settings.apiKey(), settings.model(),
                settings.readTimeout(), Objects.requireNonNull(clock, "clock"));
        this.calls = new HttpCalls(http, settings.callDeadline(), this.errors.wire());
        this.streaming = new AtomicBoolean(settings.stream());
    }

    /** An OkHttpClient with the settings' timeouts. */
    public static OkHttpClient httpClient(HttpSettings settings) {
        return HttpCalls.client(settings.baseUrl(), settings.connectTimeout(), settings.readTimeout());
    }

    /** What makes an OkHttpClient with the settings' timeouts, at the first call. */
    protected static Supplier<OkHttpClient> madeFor(HttpSettings settings) {
        return () -> httpClient(settings);
    }

    /** One HTTP exchange of a completion within what is left of {@code current}'s deadline, streamed or not. */
    protected abstract Completion send(LlmRequest request, StreamListener listener, boolean stream,
                                       InFlightCall current);

    /**
     * Whether a streaming request refused for good ({@code e}) is streaming trouble, to be asked again without a
     * stream; never, by default.
     */
    protected boolean streamRefused(LlmRequest request, FatalLlmException e) {
        return false;
    }

    @Override
    public final Completion complete(LlmRequest request, StreamListener listener, CallCancel cancel) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(listener, "listener");
        return calls.call(cancel, current -> {
            if (!streaming.get()) return send(request, listener, false, current);
            try {
                return send(request, listener, true, current);
            } catch (FatalLlmException e) {
                if (!streamRefused(request, e)) throw e;
            }
            Completion fallback = send(request, listener, false, current);
            if (!fallback.interrupted()) streaming.set(false);
            return fallback;
        });
    }

    /** Whether the next call will ask for a stream (false after a streaming fallback). */
    protected final boolean asksForStream() {
        return streaming.get();
    }

    /** One HTTP exchange within what is left of {@code current}'s deadline (see {@link HttpCalls#exchange}). */
    protected final <T> T exchange(InFlightCall current, Request request, HttpCalls.Reading<T> reading) {
        return calls.exchange(current, request, reading);
    }

    /** A non-2xx response of a probe as the provider's exception. */
    @FunctionalInterface
    protected interface Statuses {
        RuntimeException status(Response response, String body);
    }

    /** Whether a probe's 2xx body is the server's answer; throws when it is not. */
    @FunctionalInterface
    protected interface Answered {
        void check(Response response) throws IOException;
    }

    /**
     * Makes {@code request} as a probe under {@code cancel}: an answer {@code answered} accepts means the server
     * answers; a probe the cancel cut short returns quietly, as a cancelled completion does.
     */
    protected final void probe(CallCancel cancel, Request request, Statuses statuses, Answered answered) {
        calls.call(cancel, current -> exchange(current, request, new HttpCalls.Reading<Void>() {
            @Override
            public RuntimeException status(Response response, String body) {
                return statuses.status(response, body);
            }

            @Override
            public Void read(Response response) throws IOException {
                answered.check(response);
                return null;
            }

            @Override
            public Void cancelled() { return null; }

            @Override
            public String partialText() { return ""; }
        }));
    }

    /**
     * Reads a 2xx body that is server-sent events or one JSON object, by its Content-Type ({@link BodyFormat}; the
     * one asked for when it names none): events are fed to {@code partial} and streamed to {@code listener}, and
     * null is returned; a JSON object is returned whole, read up to {@link Bodies#MAX_BODY_BYTES}. Anything else (a
     * proxy's HTML page) is the retryable content-type error.
     */
    protected final String eventsOrWhole(Response response, boolean stream, EventStream.Events partial,
                                         StreamListener listener) throws IOException {
        ResponseBody body = response.body();
        MediaType type = body.contentType();
        BodyFormat format = BodyFormat.of(type, body.source(), stream ? BodyFormat.EVENT_STREAM : BodyFormat.JSON);
        if (format == BodyFormat.OTHER) throw errors.wire().contentType(response.code(), Bodies.describe(type));
        if (format == BodyFormat.JSON) return Bodies.readCapped(body.source(), Bodies.MAX_BODY_BYTES);
        EventStream.read(body.source(), partial, listener);
        return null;
    }

    /** A JSON POST of {@code body} to {@code url}, the key (when set) sent as {@code Authorization: Bearer}. */
    protected final Request bearerPost(HttpUrl url, String body, String accept) {
        Request.Builder builder = new Request.Builder().url(url).header("Accept", accept)
                .post(RequestBody.create(body, JSON));
        if (!settings.apiKey().isEmpty()) builder.header("Authorization", "Bearer " + settings.apiKey());
        return builder.build();
    }

    /** The model a reply names, else the one asked for. */
    protected final String answeredBy(String replyModel) {
        return replyModel.isEmpty() ? settings.model() : replyModel;
    }

    @Override
    public final String endpoint() { return base.endpoint(); }

    @Override
    public final String model() { return settings.model(); }
}
