package dev.hmpagent.llm.wire;

import dev.hmpagent.llm.CallCancel;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.FatalLlmException;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * A provider's client over HTTP, its skeleton written once: the OkHttpClient made at the first call (building one sets
 * up TLS, reading the JDK's trust store, which no start needs before the agent first thinks), each completion one
 * {@link HttpCalls#call} under its caller's {@link CallCancel} and deadline, the stream → non-stream fallback (a
 * server that refuses a streaming request is asked again at once without a stream, and is never asked for a stream
 * again), a probe's exchange, and what a completion names as its model. A provider supplies its wire format only:
 * {@link #send} (the request and how its reply is read) and its error mapping ({@link #wireErrors}, and the statuses
 * of its readings).
 */
public abstract class HttpLlm<S extends HttpSettings> implements LlmClient {
    private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

    /** The provider's settings: where, the key, the model, streaming, the timeouts, and what else it has. */
    protected final S settings;
    private final String endpoint;
    private final Lazy<HttpCalls> calls;
    private final AtomicBoolean streaming;

    /**
     * @param endpoint where requests go, for messages (never a secret)
     * @param http     makes the OkHttpClient, asked once, at the first call ({@link #madeFor} the settings' timeouts;
     *                 {@link HttpCalls#constant} a given one, whose timeouts apply, for tests and a shared pool)
     */
    protected HttpLlm(S settings, String endpoint, Supplier<OkHttpClient> http) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(http, "http");
        this.calls = new Lazy<>(() -> new HttpCalls(http, settings.callDeadline(), wireErrors()));
        this.streaming = new AtomicBoolean(settings.stream());
    }

    /** An OkHttpClient with the settings' timeouts. */
    public static OkHttpClient httpClient(HttpSettings settings) {
        return HttpCalls.client(settings.connectTimeout(), settings.readTimeout());
    }

    /** What makes an OkHttpClient with the settings' timeouts, at the first call. */
    protected static Supplier<OkHttpClient> madeFor(HttpSettings settings) {
        return () -> httpClient(settings);
    }

    /** The provider-neutral errors of this provider's calls: transport failures, the deadline, the key scrubbed. */
    protected abstract WireErrors wireErrors();

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
        return calls.get().call(cancel, current -> {
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
        return calls.get().exchange(current, request, reading);
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
        calls.get().call(cancel, current -> exchange(current, request, new HttpCalls.Reading<Void>() {
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
    public final String endpoint() { return endpoint; }

    @Override
    public final String model() { return settings.model(); }
}
