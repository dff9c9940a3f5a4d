package dev.hmpagent.safety;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.text.Text;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a stop of the breakers is about, named for the people who read it (the terminal line, {@code agent status},
 * the audit, the alert command) and for the LLM after the unlock: the command that kept failing, as a person would
 * type it, and its last error. The last error of each recent action is kept in memory on the tick thread; after a restart a
 * stop names the command alone until it fails again.
 */
final class LockoutCause {
    /** Actions whose last error is kept: a streak long enough to lock is never older than these. */
    private static final int KEPT = 64;
    private static final int COMMAND_CHARS = 200;
    private static final int ERROR_CHARS = 240;
    private static final ObjectMapper JSON = Json.mapper();

    private final ProcessLogDao processLog;
    private final Map<String, String> lastError = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > KEPT;
        }
    };

    LockoutCause(ProcessLogDao processLog) {
        this.processLog = Objects.requireNonNull(processLog, "processLog");
    }

    /** A command with fingerprint {@code fingerprint} failed with {@code fact}. */
    void failed(String fingerprint, FailureFact fact) {
        if (fingerprint == null || fingerprint.isEmpty()) return;
        lastError.put(fingerprint, Text.oneLine(fact.code() + ": " + fact.detail(), ERROR_CHARS));
    }

    /**
     * "; the command: … ; its last error: …" for the command of row {@code processLogId}, to follow a stop's reason;
     * "" when the row cannot be found.
     */
    String of(long processLogId, String fingerprint) {
        String command = processLog.get(processLogId)
                .map(r -> Text.oneLine(typed(r.name(), r.value()), COMMAND_CHARS))
                .orElse("");
        if (command.isEmpty()) return "";
        String error = fingerprint == null ? null : lastError.get(fingerprint);
        return "; the command: " + command + (error == null ? "" : "; its last error: " + error);
    }

    /**
     * The command as a person would type it: a shell command as its command line, anything else as its name and its
     * arguments ({@code file_read notes.txt}); the stored JSON as it is when it cannot be read.
     */
    static String typed(String name, String json) {
        if (json == null || json.isBlank()) return name;
        JsonNode command;
        try {
            command = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            return json;
        }
        JsonNode args = command.path("args");
        if (args.path("command").isTextual()) return args.path("command").asText();
        StringBuilder line = new StringBuilder(command.path("type").asText(name));
        args.fields().forEachRemaining(arg -> line.append(' ').append(word(arg.getValue())));
        return line.toString();
    }

    /** One argument: a plain word bare, text with spaces or quotes in single quotes, anything else as JSON. */
    private static String word(JsonNode value) {
        if (!value.isTextual()) return value.toString();
        String text = value.asText();
        return !text.isEmpty() && text.matches("[\\w@%+=:,./~-]+") ? text : "'" + text.replace("'", "'\\''") + "'";
    }
}
