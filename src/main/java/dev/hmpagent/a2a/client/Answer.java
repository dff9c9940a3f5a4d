package dev.hmpagent.a2a.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a peer answered so far: the remote task's id (empty for a plain message), its state (a {@code TASK_STATE_*}
 * name, or {@code MESSAGE} for a message result), the text of its status message and of its artifacts. A blocking
 * send reads one result; a stream folds every event into it ({@link #fold}).
 */
public final class Answer {
    /** The state of an answer that is a message, not a task. */
    public static final String MESSAGE = "MESSAGE";

    private String taskId = "";
    private String state = "";
    private String statusText = "";
    private String messageText = "";
    private final List<String> artifacts = new ArrayList<>();

    /** Folds one JSON-RPC result ({@code task}, {@code message}, {@code statusUpdate}, {@code artifactUpdate}) in. */
    public Answer fold(JsonNode result) {
        Objects.requireNonNull(result, "result");
        if (result.has("task")) {
            JsonNode task = result.get("task");
            taskId = task.path("id").asText(taskId);
            status(task.path("status"));
            if (task.path("artifacts").isArray()) {
                artifacts.clear();
                task.path("artifacts").forEach(a -> artifacts.add(text(a.path("parts"))));
            }
        } else if (result.has("message")) {
            messageText = text(result.get("message").path("parts"));
            taskId = result.get("message").path("taskId").asText(taskId);
            if (state.isEmpty()) state = MESSAGE;
        } else if (result.has("statusUpdate")) {
            taskId = result.get("statusUpdate").path("taskId").asText(taskId);
            status(result.get("statusUpdate").path("status"));
        } else if (result.has("artifactUpdate")) {
            taskId = result.get("artifactUpdate").path("taskId").asText(taskId);
            JsonNode a = result.get("artifactUpdate").path("artifact");
            boolean append = result.get("artifactUpdate").path("append").asBoolean(false);
            String t = text(a.path("parts"));
            if (append && !artifacts.isEmpty()) artifacts.set(artifacts.size() - 1, artifacts.get(artifacts.size() - 1) + t);
            else artifacts.add(t);
        }
        return this;
    }

    private void status(JsonNode status) {
        if (status.has("state")) state = status.path("state").asText(state);
        String t = text(status.path("message").path("parts"));
        if (!t.isEmpty()) statusText = t;
    }

    private static String text(JsonNode parts) {
        List<String> out = new ArrayList<>();
        for (JsonNode p : parts) {
            if (p.path("text").isTextual()) out.add(p.get("text").asText());
            else if (p.has("data")) out.add(p.get("data").toString());
            else if (p.path("url").isTextual()) out.add(p.get("url").asText());
        }
        return String.join("\n", out);
    }

    public String taskId() {
        return taskId;
    }

    public String state() {
        return state;
    }

    /** Whether the peer is done with it: a message, or a task in an end state or waiting for input. */
    public boolean finished() {
        return switch (state) {
            case MESSAGE, "TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED",
                 "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED" -> true;
            default -> false;
        };
    }

    /** Whether the peer did what was asked (a message, a completed task, or a question back). */
    public boolean answered() {
        return state.equals(MESSAGE) || state.equals("TASK_STATE_COMPLETED") || state.equals("TASK_STATE_INPUT_REQUIRED");
    }

    /** The answer's text: the message's, else the task's status message, else its artifacts'. */
    public String text() {
        if (!messageText.isEmpty()) return messageText;
        if (!statusText.isEmpty()) return statusText;
        return String.join("\n", artifacts.stream().filter(a -> !a.isEmpty()).toList());
    }

    /** The state in a word: completed, failed, input required… */
    public String stateWord() {
        if (state.isEmpty()) return "no state";
        return state.replaceFirst("^TASK_STATE_", "").replace('_', ' ').toLowerCase(java.util.Locale.ROOT);
    }
}
