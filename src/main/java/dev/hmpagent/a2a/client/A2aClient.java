package dev.hmpagent.a2a.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.commands.catalogue.PeerLink.Failure;
import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.text.Json;
import dev.hmpagent.text.Lazy;
import dev.hmpagent.text.Text;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * An A2A 1.0 client over JSON-RPC (issue 37): fetches and checks an agent card, sends a message ({@code SendMessage},
 * or {@code SendStreamingMessage} when the card offers streaming) and reads the answer, cancels a task. Every POST
 * carries {@code A2A-Version: 1.0}, {@code Content-Type: application/json} and, when the peer has a token variable,
 * {@code Authorization: Bearer} with its value (read when sending, never stored or printed). Connecting waits at most
 * {@link #CONNECT}; a whole send at most its bound; a {@link Sending} aborts it.
 */
public final class A2aClient {
    public static final Duration CONNECT = Duration.ofSeconds(5);
    /** The longest a card fetch or a CancelTask may take. */
    public static final Duration SHORT_CALL = Duration.ofSeconds(10);
    /** The longest a send may take by default. */
    public static final Duration DEFAULT_SEND = Duration.ofMinutes(10);
    private static final MediaType JSON_TYPE = MediaType.get("application/json");
    private static final ObjectMapper JSON = Json.mapper();

    /** Made at the first call: building an OkHttpClient sets up TLS (the security providers, the trust store). */
    private final Lazy<OkHttpClient> sends;
    private final Lazy<OkHttpClient> shortCalls;
    private final Function<String, String> variables;
    private final Duration sendBound;

    /**
     * @param sendBound the longest one send may take, answer included
     * @param variables the environment, read by variable name for a peer's token
     */
    public A2aClient(Duration sendBound, Function<String, String> variables) {
        this.variables = Objects.requireNonNull(variables, "variables");
        this.sendBound = Objects.requireNonNull(sendBound, "sendBound");
        this.sends = new Lazy<>(() -> new OkHttpClient.Builder().connectTimeout(CONNECT).readTimeout(sendBound)
                .writeTimeout(CONNECT).callTimeout(sendBound).retryOnConnectionFailure(false).build());
        this.shortCalls = new Lazy<>(() -> sends.get().newBuilder().readTimeout(SHORT_CALL).callTimeout(SHORT_CALL).build());
    }

    /** Fetches and checks the card of the agent at {@code url}; throws {@link Failure} with one line. */
    public AgentCard fetchCard(String url) {
        String at = AgentCard.cardUrl(url);
        if (HttpUrl.parse(at) == null) {
            throw new Failure(ErrorCode.EINVAL, "\"" + Text.oneLine(url, 100) + "\" is not an http(s) URL; give the "
                    + "agent's address, e.g. http://127.0.0.1:7420");
        }
        Call call = shortCalls.get().newCall(new Request.Builder().url(at).header("A2A-Version", "1.0").get().build());
        try (Response r = call.execute()) {
            if (!r.isSuccessful()) {
                throw new Failure(ErrorCode.EOFFLINE, "no agent card at " + at + ": HTTP " + r.code());
            }
            return AgentCard.parse(r.body().string(), at);
        } catch (IOException e) {
            throw unreachable(at, e, null);
        }
    }

    /**
     * Sends {@code text} to the peer of {@code card} with {@code trace} in the message's metadata, and returns its
     * answer once it is done (a stream, once it ends). {@code tokenEnv} names the token's variable (empty: none).
     */
    public Answer send(AgentCard card, String tokenEnv, String text, ArrayNode trace, Sending sending) {
        ObjectNode message = JSON.createObjectNode().put("messageId", UUID.randomUUID().toString()).put("role", "ROLE_USER");
        message.putArray("parts").addObject().put("text", text);
        message.putObject("metadata").set("trace", trace);
        ObjectNode params = JSON.createObjectNode();
        params.set("message", message);
        String method = card.streaming() ? "SendStreamingMessage" : "SendMessage";
        Request.Builder request = post(card, tokenEnv, method, params);
        if (card.streaming()) request.header("Accept", "text/event-stream");
        Call call = sends.get().newCall(request.build());
        sending.attach(call);
        Answer answer = new Answer();
        long deadline = System.nanoTime() + sendBound.toNanos();
        try (Response r = call.execute()) {
            refused(r, card, tokenEnv);
            String type = r.header("Content-Type", "");
            if (card.streaming() && type.startsWith("text/event-stream")) {
                stream(r, answer, sending);
            } else {
                answer.fold(result(JSON.readTree(r.body().string())));
                sending.task(answer.taskId());
            }
        } catch (IOException e) {
            // the peer named its task before the connection broke (it restarted, the network dropped): ask for it
            if (answer.taskId().isEmpty() || sending.cancelled() || e instanceof JsonProcessingException) {
                throw unreachable(card.endpoint(), e, sending);
            }
        }
        return answer.finished() || answer.taskId().isEmpty() ? answer : resume(card, tokenEnv, answer, sending, deadline);
    }

    /**
     * The peer's task until it ends, after a stream or a connection cut short: asked for with GetTask, at growing
     * pauses (a quarter second doubling to five), while the peer restarts, until the send's bound. The task lives in
     * the peer's file, so a peer that restarts in the middle of it answers it then.
     */
    private Answer resume(AgentCard card, String tokenEnv, Answer answer, Sending sending, long deadline) {
        long pause = 250;
        while (!answer.finished()) {
            if (System.nanoTime() >= deadline) {
                throw new Failure(ErrorCode.ETIMEDOUT, "the peer's task " + answer.taskId() + " was still "
                        + answer.stateWord() + " when the send's time was up; the connection broke before its end");
            }
            try {
                sending.pause(Duration.ofMillis(pause));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Failure(ErrorCode.EHALT, "the send was cancelled by a halt");
            }
            if (sending.cancelled()) throw new Failure(ErrorCode.EHALT, "the send was cancelled by a halt");
            pause = Math.min(pause * 2, 5_000);
            Call call = shortCalls.get().newCall(post(card, tokenEnv, "GetTask", JSON.createObjectNode()
                    .put("id", answer.taskId())).build());
            sending.attach(call);
            try (Response r = call.execute()) {
                if (r.code() >= 500) continue;   // starting up again
                refused(r, card, tokenEnv);
                ObjectNode task = JSON.createObjectNode();
                task.set("task", result(JSON.readTree(r.body().string())));
                answer.fold(task);
            } catch (IOException stillDown) {
                if (sending.cancelled()) throw new Failure(ErrorCode.EHALT, "the send was cancelled by a halt");
            }
        }
        return answer;
    }

    /** Asks the peer to cancel its task {@code taskId}; one line when it could not. */
    public void cancelTask(AgentCard card, String tokenEnv, String taskId) {
        Call call = shortCalls.get().newCall(post(card, tokenEnv, "CancelTask", JSON.createObjectNode().put("id", taskId)).build());
        try (Response r = call.execute()) {
            refused(r, card, tokenEnv);
            result(JSON.readTree(r.body().string()));
        } catch (IOException e) {
            throw unreachable(card.endpoint(), e, null);
        }
    }

    private Request.Builder post(AgentCard card, String tokenEnv, String method, ObjectNode params) {
        ObjectNode rpc = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", UUID.randomUUID().toString())
                .put("method", method);
        rpc.set("params", params);
        byte[] body;
        try {
            body = JSON.writeValueAsBytes(rpc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree that cannot be written", e);
        }
        if (HttpUrl.parse(card.endpoint()) == null) {
            throw new Failure(ErrorCode.EINVAL, "the agent card names \"" + Text.oneLine(card.endpoint(), 100)
                    + "\" as its JSON-RPC URL, which is not an http(s) URL");
        }
        Request.Builder b = new Request.Builder().url(card.endpoint()).header("A2A-Version", "1.0")
                .post(RequestBody.create(body, JSON_TYPE));
        if (!tokenEnv.isEmpty()) {
            String token = variables.apply(tokenEnv);
            if (token == null || token.isBlank()) {
                throw new Failure(ErrorCode.EPERM, "the peer's token variable " + tokenEnv + " is not set in this "
                        + "agent's environment; export it and start the agent again");
            }
            b.header("Authorization", "Bearer " + token.strip());
        }
        return b;
    }

    /** Reads the SSE events of a stream into {@code answer} until the peer closes it. */
    private static void stream(Response r, Answer answer, Sending sending) throws IOException {
        SseReader events = new SseReader(new BufferedReader(new java.io.InputStreamReader(r.body().byteStream(),
                StandardCharsets.UTF_8)));
        for (SseReader.Event e = events.next(); e != null; e = events.next()) {
            if (e.data().isBlank()) continue;
            JsonNode rpc = JSON.readTree(e.data());
            answer.fold(result(rpc));
            sending.task(answer.taskId());
            if (answer.finished()) return;
        }
    }

    private static void refused(Response r, AgentCard card, String tokenEnv) {
        if (r.code() == 401 || r.code() == 403) {
            throw new Failure(ErrorCode.EPERM, "refused with HTTP " + r.code() + (!tokenEnv.isEmpty()
                    ? ": it did not accept the token in " + tokenEnv + "; check what that variable holds"
                    : ": it needs a bearer token; name its variable (agent peers add NAME URL --token-env VAR)"));
        }
        if (!r.isSuccessful()) {
            throw new Failure(ErrorCode.EOFFLINE, "answered HTTP " + r.code() + " at " + card.endpoint());
        }
    }

    /** The {@code result} of a JSON-RPC response; a JSON-RPC error is one line. */
    private static JsonNode result(JsonNode rpc) {
        if (rpc.has("error")) {
            JsonNode err = rpc.get("error");
            throw new Failure(ErrorCode.EINVAL, "refused the call: " + Text.oneLine(err.path("message").asText(""), 200)
                    + " (JSON-RPC error " + err.path("code").asInt() + ")");
        }
        if (!rpc.path("result").isObject()) {
            throw new Failure(ErrorCode.EINVAL, "answered with no JSON-RPC result");
        }
        return rpc.get("result");
    }

    private static Failure unreachable(String url, IOException e, Sending sending) {
        if (sending != null && sending.cancelled()) return new Failure(ErrorCode.EHALT, "the send was cancelled by a halt");
        if (e instanceof InterruptedIOException) {
            return new Failure(ErrorCode.ETIMEDOUT, "no answer from " + url + " in time ("
                    + Text.oneLine(String.valueOf(e.getMessage()), 60) + ")");
        }
        if (e instanceof JsonProcessingException j) {
            return new Failure(ErrorCode.EINVAL, "answered with JSON that is not JSON ("
                    + Text.oneLine(j.getOriginalMessage(), 80) + ")");
        }
        return new Failure(ErrorCode.EOFFLINE, "not reachable at " + url + " (" + e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : ": " + Text.oneLine(e.getMessage(), 100)) + ")");
    }
}
