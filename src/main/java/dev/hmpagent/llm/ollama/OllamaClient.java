package dev.hmpagent.llm.ollama;

import dev.hmpagent.llm.CallCancel;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.wire.Bodies;
import dev.hmpagent.llm.wire.EventStream;
import dev.hmpagent.llm.wire.HttpCalls;
import dev.hmpagent.llm.wire.HttpLlm;
import dev.hmpagent.llm.wire.InFlightCall;
import dev.hmpagent.llm.wire.ReplyException;
import dev.hmpagent.llm.wire.SseEventParser;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;

import java.io.IOException;
import java.time.Clock;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * An {@link LlmClient} for Ollama's native {@code POST /api/chat}, which, unlike its OpenAI-compatible {@code /v1},
 * passes model options ({@code num_ctx}, {@code top_k}, {@code seed}…) and {@code keep_alive} on. Streams NDJSON
 * (one JSON object a line, the last with {@code "done": true} and the token counts) when the settings ask for it;
 * otherwise reads one JSON object. {@link #probe()} asks {@code /api/show}, which generates nothing.
 */
public final class OllamaClient extends HttpLlm<OllamaSettings, OllamaErrors> {
    static final String CHAT_PATH = "/api/chat";
    static final String SHOW_PATH = "/api/show";
    /** The longest reply text kept (4 Mi characters); a runaway reply is cut there, as if by num_predict. */
    static final int MAX_REPLY_CHARS = Bodies.MAX_REPLY_CHARS;
    /** The largest non-streaming body read; a bigger one is a retryable bad_response. */
    static final long MAX_BODY_BYTES = Bodies.MAX_BODY_BYTES;
    private static final int MAX_LEADING_BLANKS = 8 * 1024;

    private final HttpUrl chatUrl;
    private final HttpUrl showUrl;
    private final OllamaWire wire = new OllamaWire();
    private final ContextWindow contextWindow;

    public OllamaClient(OllamaSettings settings) {
        this(settings, madeFor(settings), Clock.systemUTC());
    }

    public OllamaClient(OllamaSettings settings, Supplier<OkHttpClient> http, Clock clock) {
        super(settings, http, clock, OllamaErrors::new);
        this.contextWindow = ContextWindow.of(settings.baseUrl(), settings.model(), settings.options());
        this.chatUrl = base.resolve(CHAT_PATH);
        this.showUrl = base.resolve(SHOW_PATH);
    }

    /**
     * Asks {@code POST /api/show} about the model: answered (HTTP 200 with JSON) means the server runs and has the
     * model; nothing is generated and the model is not loaded. A probe cancelled by its {@link CallCancel} returns
     * quietly, as a cancelled {@link #complete} does.
     *
     * @throws LlmException fatal when the model is not pulled (404) or the key is refused, retryable when the server
     *                      is unreachable or busy
     */
    @Override
    public void probe(CallCancel cancel) {
        Request request = bearerPost(showUrl, wire.showBody(settings.model()), "application/json");
        probe(cancel, request, (response, body) -> status(response, body, SHOW_PATH), response -> {
            ResponseBody body = response.body();
            if (format(body.contentType(), body.source(), false) != Format.WHOLE) {
                throw errors.contentType(response.code(), describe(body.contentType()));
            }
        });
    }

    /** What this client said about Ollama's context size ({@link ContextWindow}), once each. */
    @Override
    public java.util.List<String> notices() {
        return contextWindow.drain();
    }

    /** A non-2xx status of {@code path} as Ollama's error. */
    private RuntimeException status(Response response, String body, String path) {
        String message = wire.errorMessage(body);
        return errors.http(response.code(), response.headers(), message != null ? message : body, path);
    }

    /** One exchange within the call deadline. */
    @Override
    protected Completion send(LlmRequest request, StreamListener listener, boolean stream, InFlightCall current) {
        Request post = bearerPost(chatUrl, wire.chatBody(settings, request, stream, contextWindow.forRequest(request)),
                stream ? "application/x-ndjson" : "application/json");
        ReplyAccumulator reply = new ReplyAccumulator(MAX_REPLY_CHARS);
        return exchange(current, post, new HttpCalls.Reading<>() {
            @Override
            public RuntimeException status(Response response, String body) {
                return OllamaClient.this.status(response, body, CHAT_PATH);
            }

            @Override
            public Completion read(Response response) throws IOException {
                ResponseBody body = response.body();
                switch (format(body.contentType(), body.source(), stream)) {
                    case LINES -> readLines(body.source(), reply, listener);
                    case WHOLE -> readWhole(body.source(), reply, listener);
                    case OTHER -> throw errors.contentType(response.code(), describe(body.contentType()));
                }
                return completion(request, reply, false);
            }

            @Override
            public Completion cancelled() { return completion(request, reply, true); }

            @Override
            public String partialText() { return reply.text(); }
        });
    }

    /** NDJSON: one object a line, blank lines skipped, until {@code "done": true} or the reply cap. */
    private void readLines(BufferedSource source, ReplyAccumulator reply, StreamListener listener)
            throws IOException {
        SseEventParser.Line line;
        while (!reply.finished() && (line = SseEventParser.nextLine(source)) != null) {
            if (line.cut()) {
                EventStream.deliver(reply.acceptCut(fitOf(line.text())), listener);   // a too-large line: keep what fit, end there
            } else if (!line.text().isBlank()) {
                EventStream.deliver(reply.accept(wire.parse(line.text())), listener);
            }
        }
        if (!reply.finished()) {
            throw new ReplyException(ReplyException.TRUNCATED, "stream ended without \"done\": true", null);
        }
    }

    /** One JSON object, refused beyond {@link #MAX_BODY_BYTES} so a server cannot exhaust memory. */
    private void readWhole(BufferedSource source, ReplyAccumulator reply, StreamListener listener) throws IOException {
        if (source.request(MAX_BODY_BYTES + 1)) {
            throw ReplyException.malformed("the reply body is larger than " + MAX_BODY_BYTES / (1024 * 1024)
                    + " MB; it was not read", null);
        }
        EventStream.deliver(reply.accept(wire.parse(source.readUtf8())), listener);
        if (!reply.finished()) {
            throw new ReplyException(ReplyException.TRUNCATED, "reply without \"done\": true", null);
        }
    }

    /** The first 1 MB of a longer line read as a chunk, or null when it cannot be (the server's error stays one). */
    private OllamaChunk fitOf(String start) throws ReplyException {
        try {
            return wire.parse(dev.hmpagent.llm.wire.TruncatedJson.close(start.strip()));
        } catch (ReplyException unreadable) {
            if (!unreadable.malformed()) throw unreadable;
            return null;
        }
    }

    /** How to read a 2xx body. */
    private enum Format { LINES, WHOLE, OTHER }

    /**
     * From the Content-Type, leniently: any {@code *ndjson} is lines; any other {@code *json} is lines when a stream
     * was asked (a compact single object is one line) and one object otherwise; a missing or {@code text/plain}
     * type is decided by a first non-blank <code>{</code>, peeked. Anything else (a proxy's HTML page) is OTHER.
     */
    private static Format format(MediaType type, BufferedSource body, boolean stream) throws IOException {
        Format json = stream ? Format.LINES : Format.WHOLE;
        if (type != null) {
            String sub = type.subtype().toLowerCase(Locale.ROOT);
            if (sub.contains("ndjson")) return Format.LINES;
            if (sub.contains("json")) return json;
            if (!(type.type().equalsIgnoreCase("text") && sub.equals("plain"))) return Format.OTHER;
        }
        BufferedSource peek = body.peek();
        for (int blanks = 0; peek.request(1); blanks++) {
            byte b = peek.readByte();
            if (b == '{') return json;
            if (!(b == ' ' || b == '\t' || b == '\r' || b == '\n') || blanks >= MAX_LEADING_BLANKS) return Format.OTHER;
        }
        return json;   // empty: read as JSON, so it fails as the truncated or malformed reply it is
    }

    /** The type and subtype, or null when the server sent no Content-Type. */
    private static String describe(MediaType type) {
        return type == null ? null : type.type() + "/" + type.subtype();
    }

    private Completion completion(LlmRequest request, ReplyAccumulator reply, boolean interrupted) {
        return new Completion(reply.text(), OllamaUsage.of(request.messages(), reply.text(), reply.counts(), interrupted),
                answeredBy(reply.model()), reply.finishReason(), interrupted, reply.toolCalls());
    }
}
