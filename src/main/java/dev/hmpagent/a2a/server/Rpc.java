package dev.hmpagent.a2a.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.a2a.A2aWire;
import dev.hmpagent.store.A2aTasksDao;
import dev.hmpagent.store.A2aTasksDao.Task;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The A2A JSON-RPC methods over the served tasks: SendMessage (blocking unless {@code returnImmediately}: it waits for
 * the agent's answer, at most the blocking wait, or returns at once when the agent is not thinking now),
 * SendStreamingMessage and SubscribeToTask (SSE: the task, then each move of its state, the answer as an artifact, and
 * the end), GetTask, ListTasks and CancelTask, with the protocol's error codes.
 */
final class Rpc {
    /** How often a wait looks at the file for the agent's answer: well inside one frame of a 2 Hz agent. */
    static final long POLL_MILLIS = 20;
    /** A stream that sees no end closes after this long; the caller subscribes again. */
    static final Duration STREAM_LIMIT = Duration.ofMinutes(30);
    static final int PAGE = 50;

    /** How a call answers: one JSON-RPC response, a 429, or a stream of events. */
    interface Reply {
        boolean admit();

        void json(ObjectNode response) throws IOException;

        void refuse429(ObjectNode response) throws IOException;

        Events stream() throws IOException;
    }

    /** A stream of JSON-RPC responses, one per event. */
    interface Events extends AutoCloseable {
        void send(ObjectNode response) throws IOException;

        @Override
        void close() throws IOException;
    }

    private final ServedTasks tasks;
    private final int maxDepth;
    private final Duration blockingWait;
    private final long callerTokensPerDay;

    Rpc(ServedTasks tasks, int maxDepth, Duration blockingWait, long callerTokensPerDay) {
        this.tasks = Objects.requireNonNull(tasks, "tasks");
        this.maxDepth = maxDepth;
        this.callerTokensPerDay = callerTokensPerDay;
        this.blockingWait = Objects.requireNonNull(blockingWait, "blockingWait");
    }

    void call(String caller, JsonNode request, Reply reply) throws IOException {
        JsonNode id = request.has("id") ? request.get("id") : NullNode.getInstance();
        String method = request.path("method").asText("");
        if (!request.isObject() || !"2.0".equals(request.path("jsonrpc").asText()) || method.isEmpty()) {
            reply.json(A2aWire.error(id, A2aWire.INVALID_REQUEST, "not a JSON-RPC 2.0 request: send {\"jsonrpc\": \"2.0\","
                    + " \"id\": 1, \"method\": \"SendMessage\", \"params\": {...}}"));
            return;
        }
        JsonNode params = request.path("params");
        try {
            switch (method) {
                case A2aWire.SEND -> send(caller, id, params, reply, false);
                case A2aWire.STREAM -> send(caller, id, params, reply, true);
                case A2aWire.GET -> reply.json(own(caller, id, params).map(t -> A2aWire.result(id,
                        A2aWire.task(t, history(params), true))).orElseGet(() -> notFound(id, params)));
                case A2aWire.LIST -> reply.json(list(caller, id, params));
                case A2aWire.CANCEL -> reply.json(cancel(caller, id, params));
                case A2aWire.SUBSCRIBE -> subscribe(caller, id, params, reply);
                default -> reply.json(A2aWire.error(id, method.contains("PushNotification") ? A2aWire.PUSH_NOT_SUPPORTED
                        : A2aWire.METHOD_NOT_FOUND, "method " + method + " is not served; this agent serves "
                        + String.join(", ", A2aWire.SEND, A2aWire.STREAM, A2aWire.GET, A2aWire.LIST, A2aWire.CANCEL,
                        A2aWire.SUBSCRIBE)));
            }
        } catch (IllegalArgumentException bad) {
            reply.json(A2aWire.error(id, A2aWire.INVALID_PARAMS, bad.getMessage()));
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
        }
    }

    private void send(String caller, JsonNode id, JsonNode params, Reply reply, boolean stream)
            throws IOException, InterruptedException {
        JsonNode message = params.path("message");
        if (!message.isObject() || !message.path("parts").isArray() || message.path("parts").isEmpty()) {
            throw new IllegalArgumentException("params.message must be a message with parts, e.g. {\"messageId\": \"m1\","
                    + " \"role\": \"ROLE_USER\", \"parts\": [{\"text\": \"...\"}]}");
        }
        if (A2aWire.text(message).isBlank()) throw new IllegalArgumentException("params.message has no text part");
        String taskId = message.path("taskId").asText("");
        if (!taskId.isBlank()) {
            Optional<Task> known = tasks.get(caller, taskId);
            reply.json(known.isEmpty() ? notFound(id, message) : A2aWire.error(id, A2aWire.UNSUPPORTED, "task " + taskId
                    + " is " + known.get().shownState() + ": send a new message without taskId (the same contextId"
                    + " keeps the conversation)"));
            return;
        }
        if (!reply.admit()) {
            reply.refuse429(A2aWire.error(id, A2aWire.INVALID_REQUEST, "too many messages: a2a.rate_per_minute"
                    + " allows fewer a minute; send again after the minute"));
            return;
        }
        long spent = callerTokensPerDay > 0 ? tasks.spentToday(caller) : 0;
        if (callerTokensPerDay > 0 && spent >= callerTokensPerDay) {
            reply.refuse429(A2aWire.error(id, A2aWire.INVALID_REQUEST, "your tasks cost this agent " + spent + " tokens"
                    + " in the last 24 hours, a2a.caller_tokens_per_day = " + callerTokensPerDay + " allows no more;"
                    + " send again tomorrow, or ask its person to raise the cap"));
            return;
        }
        Task task = tasks.withAway(tasks.accept(caller, ((ObjectNode) message).deepCopy(), maxDepth));
        if (stream) {
            try (Events events = reply.stream()) {
                follow(id, task, events);
            }
            return;
        }
        boolean wait = !params.path("configuration").path("returnImmediately").asBoolean(false)
                && params.path("configuration").path("blocking").asBoolean(true) && task.reason().isEmpty();
        Task now = wait ? until(caller, task, System.nanoTime() + blockingWait.toNanos(), true) : task;
        ObjectNode result = A2aWire.JSON.createObjectNode();
        result.set("task", A2aWire.task(now, history(params.path("configuration")), true));
        reply.json(A2aWire.result(id, result));
    }

    private void subscribe(String caller, JsonNode id, JsonNode params, Reply reply)
            throws IOException, InterruptedException {
        Optional<Task> task = own(caller, id, params);
        if (task.isEmpty()) {
            reply.json(notFound(id, params));
        } else if (task.get().ended()) {
            reply.json(A2aWire.error(id, A2aWire.UNSUPPORTED, "task " + task.get().id() + " is in terminal state: "
                    + A2aWire.state(task.get().state())));
        } else {
            try (Events events = reply.stream()) {
                follow(id, task.get(), events);
            }
        }
    }

    /** The task now, then each move of its state until it ends (the answer as an artifact first), or the limit. */
    private void follow(JsonNode id, Task task, Events events) throws IOException, InterruptedException {
        ObjectNode first = A2aWire.JSON.createObjectNode();
        first.set("task", A2aWire.task(task, 1, false));
        events.send(A2aWire.result(id, first));
        long deadline = System.nanoTime() + STREAM_LIMIT.toNanos();
        Task seen = task;
        while (!seen.ended() && System.nanoTime() < deadline) {
            Task now = until(seen.caller(), seen, deadline, false);
            if (now.shownState().equals(seen.shownState())) break;   // the limit
            if (!now.answer().isEmpty()) events.send(A2aWire.result(id, A2aWire.artifactUpdate(now)));
            events.send(A2aWire.result(id, A2aWire.statusUpdate(now)));
            seen = now;
        }
    }

    /** The task once its shown state moved (or, with {@code toEnd}, once it ended), or as it is at the deadline. */
    private Task until(String caller, Task seen, long deadline, boolean toEnd) throws InterruptedException {
        while (true) {
            Task now = tasks.get(caller, seen.id()).orElse(seen);
            boolean moved = toEnd ? now.ended() : !now.shownState().equals(seen.shownState());
            if (moved || System.nanoTime() >= deadline) return now;
            Thread.sleep(POLL_MILLIS);
        }
    }

    private ObjectNode list(String caller, JsonNode id, JsonNode params) {
        int size = params.path("pageSize").asInt(PAGE);
        if (size < 1 || size > 100) throw new IllegalArgumentException("params.pageSize must be 1 to 100");
        String status = params.path("status").asText("");
        List<Task> page = tasks.list(caller, params.path("contextId").asText(""),
                status.isBlank() ? "" : A2aWire.stateName(status), params.path("pageToken").asText(""), size + 1);
        ObjectNode result = A2aWire.JSON.createObjectNode();
        var out = result.putArray("tasks");
        boolean artifacts = params.path("includeArtifacts").asBoolean(false);
        page.stream().limit(size).forEach(t -> out.add(A2aWire.task(t, history(params), artifacts)));
        result.put("nextPageToken", page.size() > size ? A2aTasksDao.cursor(page.get(size - 1)) : "");
        result.put("pageSize", size).put("totalSize", out.size());
        return A2aWire.result(id, result);
    }

    private ObjectNode cancel(String caller, JsonNode id, JsonNode params) {
        Optional<Task> task = own(caller, id, params);
        if (task.isEmpty()) return notFound(id, params);
        return tasks.cancel(task.get()).map(t -> A2aWire.result(id, A2aWire.task(t, 1, true)))
                .orElseGet(() -> A2aWire.error(id, A2aWire.TASK_NOT_CANCELABLE, "task " + task.get().id()
                        + " cannot be canceled: it is " + task.get().shownState()));
    }

    private Optional<Task> own(String caller, JsonNode id, JsonNode params) {
        String taskId = params.path("id").asText("");
        if (taskId.isBlank()) throw new IllegalArgumentException("params.id must name a task, e.g. {\"id\": \"...\"}");
        return tasks.get(caller, taskId);
    }

    private static ObjectNode notFound(JsonNode id, JsonNode params) {
        String taskId = params.path("id").asText(params.path("taskId").asText(""));
        return A2aWire.error(id, A2aWire.TASK_NOT_FOUND, "Task not found: " + taskId);
    }

    private static int history(JsonNode params) {
        return params.path("historyLength").isMissingNode() ? 1 : params.path("historyLength").asInt(1);
    }
}
