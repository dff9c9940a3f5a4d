package dev.hmpagent.llm.anthropic;

import dev.hmpagent.llm.CallCancel;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.llm.wire.Bodies;
import dev.hmpagent.llm.wire.BodyFormat;
import dev.hmpagent.llm.wire.EventStream;
import dev.hmpagent.llm.wire.HttpCalls;
import dev.hmpagent.llm.wire.HttpLlm;
import dev.hmpagent.llm.wire.InFlightCall;
import dev.hmpagent.llm.wire.ReplyException;
import dev.hmpagent.llm.wire.StreamState;
import dev.hmpagent.llm.wire.ToolCallParts;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.function.Supplier;

/**
 * An {@link LlmClient} for Anthropic's Messages API ({@code POST /v1/messages}). Streams when asked (server-sent
 * events: message_start, content blocks, message_delta, message_stop); puts prompt-cache breakpoints on the system
 * prompt and on stable prefixes (see {@link AnthropicWire}) and reports the cached prompt tokens. Sends the key as
 * {@code x-api-key}, never as {@code Authorization}. {@link #probe()} asks for the model's description, not a reply.
 */
public final class AnthropicClient extends HttpLlm<AnthropicSettings, AnthropicErrors> {
    /** The API version every request names; the wire format here is that version's. */
    static final String API_VERSION = "2023-06-01";
    /** Exactly this content type: OkHttp would add a charset to a String body's type. */
    private static final MediaType JSON = MediaType.get("application/json");
    /** The longest reply text kept (4 Mi characters); a runaway reply is cut there, as if by max_tokens. */
    static final int MAX_REPLY_CHARS = Bodies.MAX_REPLY_CHARS;

    private final HttpUrl messagesUrl;
    private final HttpUrl modelUrl;
    private final AnthropicWire wire = new AnthropicWire();

    public AnthropicClient(AnthropicSettings settings) {
        this(settings, madeFor(settings), Clock.systemUTC());
    }

    public AnthropicClient(AnthropicSettings settings, Supplier<OkHttpClient> http, Clock clock) {
        super(settings, http, clock, AnthropicErrors::new);
        // "https://api.anthropic.com" and "https://api.anthropic.com/v1" both mean the same API
        String v1 = base.pathEndsWith("/v1") ? "" : "/v1";
        this.messagesUrl = base.resolve(v1 + "/messages");
        this.modelUrl = base.resolve(v1 + "/models").newBuilder().addPathSegment(settings.model()).build();
    }

    /**
     * Asks for the model's description ({@code GET /v1/models/{model}}): an answer means the key, the address and
     * the model are good, at no token cost. A cancelled probe returns quietly, as a cancelled default probe would.
     */
    @Override
    public void probe(CallCancel cancel) {
        Request request = headers(new Request.Builder().url(modelUrl).get(), false).build();
        probe(cancel, request, this::status, response -> {
            ResponseBody body = response.body();
            MediaType type = body.contentType();
            if (BodyFormat.of(type, body.source(), BodyFormat.JSON) != BodyFormat.JSON) {
                throw errors.wire().contentType(response.code(), Bodies.describe(type));
            }
        });
    }

    /** A non-2xx status as Anthropic's error. */
    private RuntimeException status(Response response, String body) {
        return errors.http(response.code(), response.headers(), wire.error(body), body);
    }

    /** One HTTP exchange within the call deadline; an error the server reports inside a 2xx reply is its error. */
    @Override
    protected Completion send(LlmRequest request, StreamListener listener, boolean stream, InFlightCall current) {
        AnthropicStream partial = new AnthropicStream(wire, MAX_REPLY_CHARS);
        return exchange(current, httpRequest(request, stream), new HttpCalls.Reading<>() {
            @Override
            public RuntimeException status(Response response, String body) {
                return AnthropicClient.this.status(response, body);
            }

            @Override
            public Completion read(Response response) throws IOException {
                try {
                    return reply(request, response, stream, partial, listener);
                } catch (ServerError e) {
                    throw errors.reported(e.error(), partial.text());
                }
            }

            @Override
            public Completion cancelled() { return completion(request, partial.reply(), true); }

            @Override
            public String partialText() { return partial.text(); }
        });
    }

    private Completion reply(LlmRequest request, Response response, boolean stream, AnthropicStream partial,
                             StreamListener listener) throws IOException {
        String whole = eventsOrWhole(response, stream, partial, listener);
        if (whole == null) {
            if (!partial.done()) throw new ReplyException(ReplyException.TRUNCATED, "no message_stop", null);
            return completion(request, partial.reply(), false);
        }
        Reply reply = cut(wire.parseMessage(whole));
        EventStream.deliver(reply.text(), listener);
        return completion(request, reply, false);
    }

    /** A whole reply longer than {@link #MAX_REPLY_CHARS}, cut there as a stream would be. */
    private static Reply cut(Reply reply) {
        if (reply.text().length() <= MAX_REPLY_CHARS) return reply;
        int end = StreamState.fitting(reply.text(), MAX_REPLY_CHARS);
        return new Reply(reply.text().substring(0, end), reply.model(), AnthropicStream.CUT, reply.usage(), false,
                reply.toolCalls());
    }

    private Request httpRequest(LlmRequest request, boolean stream) {
        byte[] body = wire.requestBody(settings.model(), request, stream).getBytes(StandardCharsets.UTF_8);
        return headers(new Request.Builder().url(messagesUrl).post(RequestBody.create(body, JSON)), stream).build();
    }

    /** The headers of every request: the key (only when set, and only as x-api-key) and the API version. */
    private Request.Builder headers(Request.Builder builder, boolean stream) {
        builder.header("anthropic-version", API_VERSION)
                .header("accept", stream ? "text/event-stream" : "application/json");
        if (!settings.apiKey().isEmpty()) builder.header("x-api-key", settings.apiKey());
        return builder;
    }

    private Completion completion(LlmRequest request, Reply reply, boolean interrupted) {
        return new Completion(reply.text(), usage(request, reply, interrupted), answeredBy(reply.model()), reply.finishReason(), interrupted,
                ToolCallParts.assemble(reply.toolCalls()));
    }

    /**
     * The server's usage when it is plausible and final; its prompt count with an estimated reply count when the
     * reply's count is not final (cancelled, cut, or message_delta never came); otherwise an estimate. Never 0 for
     * a reply that ended: even an empty one cost a token; 0 out for one cancelled before anything arrived.
     */
    private static Usage usage(LlmRequest request, Reply reply, boolean interrupted) {
        ServerUsage server = reply.usage();
        if (server == null || server.promptTokens() <= 0) {
            return TokenEstimator.usage(request, reply.text(), interrupted);
        }
        int prompt = server.promptTokens();
        int cached = Math.min(server.cacheReadTokens(), prompt);
        // a cache write costs more than the plain input (1.25): the budget counts it so
        int written = Math.min(server.cacheCreationTokens(), prompt - cached);
        if (reply.outputFinal() && (server.outputTokens() > 0 || reply.text().isEmpty())) {
            return new Usage(prompt, server.outputTokens(), false, cached, written);
        }
        int output = Math.max(server.outputTokens(), TokenEstimator.reply(reply.text(), interrupted));
        return new Usage(prompt, output, true, cached, written);
    }
}
