package dev.hmpagent.llm.wire;

import dev.hmpagent.llm.CallCancel;
import dev.hmpagent.text.Lazy;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import okhttp3.Call;
import okhttp3.ConnectionSpec;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The one HTTP call skeleton of the provider clients: the OkHttpClient made at the first call ({@link Lazy}), each
 * call under its caller's {@link CallCancel} (a cancel, a halt, reaches the call it was made for), each exchange within
 * what is left of its call's deadline, a non-2xx status handed to the provider's mapper, a transport failure mapped
 * by {@link WireErrors}, and a user's cancel returning what had arrived. What differs per provider (the request, how
 * a body is read, its errors) is a {@link Reading}.
 */
public final class HttpCalls {
    private static final long ERROR_BODY_LIMIT = 16 * 1024;

    private final Supplier<OkHttpClient> http;
    private final Duration callDeadline;
    private final WireErrors errors;

    /** @param http makes the OkHttpClient, asked once, at the first call */
    public HttpCalls(Supplier<OkHttpClient> http, Duration callDeadline, WireErrors errors) {
        this.http = new Lazy<>(Objects.requireNonNull(http, "http"));
        this.callDeadline = Objects.requireNonNull(callDeadline, "callDeadline");
        this.errors = Objects.requireNonNull(errors, "errors");
    }

    /** An OkHttpClient for calls to {@code url} with these timeouts (the read timeout for writes too). */
    public static OkHttpClient client(String url, Duration connectTimeout, Duration readTimeout) {
        return builderFor(url)
                .connectTimeout(connectTimeout)
                .readTimeout(readTimeout)
                .writeTimeout(readTimeout)
                .build();
    }

    /**
     * A client builder for calls to {@code url}: one for a plain {@code http://} URL (a local model server) speaks
     * cleartext only, so OkHttp never loads the platform's trust store for it (the certificates, the TLS classes:
     * about 2 MB of an idle agent's memory). Such a client refuses an {@code https://} redirect.
     */
    public static OkHttpClient.Builder builderFor(String url) {
        OkHttpClient.Builder builder = new OkHttpClient.Builder();
        if (url != null && url.regionMatches(true, 0, "http:", 0, 5)) builder.connectionSpecs(List.of(ConnectionSpec.CLEARTEXT));
        return builder;
    }

    /** {@code http} itself, for a client given one (tests, a shared connection pool). */
    public static Supplier<OkHttpClient> constant(OkHttpClient http) {
        Objects.requireNonNull(http, "http");
        return () -> http;
    }

    /** How one exchange's response is read, and what its failures become. */
    public interface Reading<T> {
        /** A non-2xx response (its body's first 16 KB in {@code body}) as the provider's exception. */
        RuntimeException status(Response response, String body);

        /** A 2xx response, read to its end. */
        T read(Response response) throws IOException;

        /** What a call the user cancelled returns: the reply so far, interrupted. */
        T cancelled();

        /** The reply text that had arrived, carried by a failure's exception. */
        String partialText();
    }

    /**
     * One call of the client (a completion, a probe), its exchanges run by {@code body} under one deadline and the
     * caller's {@code cancel}: a cancel that came before this call was even made aborts its exchanges as they are
     * attached, so no request of a cancelled completion reaches the server.
     */
    public <T> T call(CallCancel cancel, Function<InFlightCall, T> body) {
        InFlightCall current = new InFlightCall(callDeadline);
        Runnable off = cancel.onCancel(current::cancel);
        try {
            return body.apply(current);
        } finally {
            off.run();
        }
    }

    /**
     * One HTTP exchange within what is left of {@code current}'s deadline. OkHttp cancels the call when that runs out;
     * a cancelled call the user did not cancel is therefore the deadline.
     */
    public <T> T exchange(InFlightCall current, Request request, Reading<T> reading) {
        long remaining = current.remainingNanos();
        if (remaining <= 0) throw errors.deadline(callDeadline, "", null);
        Call call = http.get().newCall(request);
        call.timeout().timeout(remaining, TimeUnit.NANOSECONDS);
        current.attach(call);
        try (Response response = call.execute()) {
            if (!response.isSuccessful()) throw reading.status(response, response.peekBody(ERROR_BODY_LIMIT).string());
            return reading.read(response);
        } catch (IOException e) {
            if (current.cancelled()) return reading.cancelled();
            if (call.isCanceled()) throw errors.deadline(callDeadline, reading.partialText(), e);
            throw errors.io(e, reading.partialText());
        }
    }
}
