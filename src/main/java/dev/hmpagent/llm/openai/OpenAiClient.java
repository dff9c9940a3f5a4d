package dev.hmpagent.llm.openai;

import dev.hmpagent.llm.wire.Bodies;
import dev.hmpagent.llm.wire.EventStream;
import dev.hmpagent.llm.wire.HttpCalls;
import dev.hmpagent.llm.wire.HttpLlm;
import dev.hmpagent.llm.wire.InFlightCall;
import dev.hmpagent.llm.wire.ReplyException;
import dev.hmpagent.llm.wire.StreamState;
import dev.hmpagent.llm.wire.ToolCallParts;
import dev.hmpagent.llm.CommandsByTools;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.FatalLlmException;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.llm.Usage;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;
import java.time.Clock;
import java.util.function.Supplier;

/**
 * An {@link LlmClient} for any OpenAI-compatible {@code /chat/completions} server (OpenAI,
 * Ollama's {@code /v1}, llama.cpp, vLLM). Streams when asked; falls back to non-streaming for
 * the rest of its life when a server rejects the streaming request with HTTP 400 ({@link HttpLlm}).
 */
public final class OpenAiClient extends HttpLlm<OpenAiSettings, OpenAiErrors> {
    /** The longest reply text kept (4 Mi characters); a runaway reply is cut there, as if by max_tokens. */
    static final int MAX_REPLY_CHARS = Bodies.MAX_REPLY_CHARS;
    /** The largest non-streaming body read; a bigger one is a retryable bad_response. */
    static final long MAX_BODY_BYTES = Bodies.MAX_BODY_BYTES;

    private final HttpUrl url;
    private final OpenAiWire wire = new OpenAiWire();

    public OpenAiClient(OpenAiSettings settings) {
        this(settings, madeFor(settings), Clock.systemUTC());
    }

    public OpenAiClient(OpenAiSettings settings, Supplier<OkHttpClient> http, Clock clock) {
        super(settings, http, clock, OpenAiErrors::new);
        this.url = base.resolve("/chat/completions");
    }

    /** A 400 to a streaming request is streaming trouble, unless {@link #refusesToolsAlways}. */
    @Override
    protected boolean streamRefused(LlmRequest request, FatalLlmException e) {
        return e.kind().equals("http_400") && !refusesToolsAlways(request, e);
    }

    /** Whether the next call will ask for a stream (false after a streaming fallback). */
    boolean streaming() { return asksForStream(); }

    /**
     * A 400 for the tools or the reply schema that is no streaming trouble, so the same request without a stream
     * would get it too; but "cannot use tools with stream" (older llama.cpp servers) is streaming trouble: asked
     * again without a stream.
     */
    private static boolean refusesToolsAlways(LlmRequest request, FatalLlmException e) {
        boolean refused = !request.tools().isEmpty() && CommandsByTools.refusesTools(e)
                || request.replySchema().any() && CommandsByTools.refusesSchema(e);
        return refused && !e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("stream");
    }

    /** One HTTP exchange within what is left of the call deadline. */
    @Override
    protected Completion send(LlmRequest request, StreamListener listener, boolean stream, InFlightCall current) {
        StreamAccumulator partial = new StreamAccumulator(wire, MAX_REPLY_CHARS);
        return exchange(current, httpRequest(request, stream), new HttpCalls.Reading<>() {
            @Override
            public RuntimeException status(Response response, String body) {
                String message = wire.errorMessage(body);
                return errors.http(response.code(), response.headers(), message != null ? message : body,
                        wire.quotaExhausted(body));
            }

            @Override
            public Completion read(Response response) throws IOException {
                return reply(request, response, stream, partial, listener);
            }

            @Override
            public Completion cancelled() { return completion(request, partial.reply(), true); }

            @Override
            public String partialText() { return partial.reply().text(); }
        });
    }

    private Completion reply(LlmRequest request, Response response, boolean stream, StreamAccumulator partial,
                             StreamListener listener) throws IOException {
        String whole = eventsOrWhole(response, stream, partial, listener);
        if (whole == null) {
            if (!partial.complete()) {
                throw new ReplyException(ReplyException.TRUNCATED, "no finish_reason, no [DONE]", null);
            }
            return completion(request, partial.reply(), false);
        }
        Reply reply = cut(wire.parseReply(whole));
        EventStream.deliver(reply.text(), listener);
        return completion(request, reply, false);
    }

    /** A whole reply longer than {@link #MAX_REPLY_CHARS}, cut there as a stream would be. */
    private static Reply cut(Reply reply) {
        if (reply.text().length() <= MAX_REPLY_CHARS) return reply;
        int end = StreamState.fitting(reply.text(), MAX_REPLY_CHARS);
        return new Reply(reply.text().substring(0, end), reply.model(), StreamAccumulator.CUT, reply.usage(),
                reply.toolCalls());
    }

    private Request httpRequest(LlmRequest request, boolean stream) {
        return bearerPost(url, wire.requestBody(settings.model(), request, stream),
                stream ? "text/event-stream" : "application/json");
    }

    private Completion completion(LlmRequest request, Reply reply, boolean interrupted) {
        Usage usage = usage(request, reply, interrupted);
        return new Completion(reply.text(), usage, answeredBy(reply.model()), reply.finishReason(), interrupted,
                ToolCallParts.assemble(reply.toolCalls()));
    }

    /**
     * The server's usage when it is plausible, otherwise an estimate (never 0 for a reply that ended: even an empty
     * one cost a token; 0 out for one cancelled before anything arrived).
     */
    private static Usage usage(LlmRequest request, Reply reply, boolean interrupted) {
        ServerUsage server = reply.usage();
        boolean plausible = server != null && server.promptTokens() > 0
                && (server.completionTokens() > 0 || reply.text().isEmpty());
        if (plausible) return new Usage(server.promptTokens(), server.completionTokens(), false,
                Math.min(server.cachedTokens(), server.promptTokens()));
        return TokenEstimator.usage(request, reply.text(), interrupted);
    }
}
