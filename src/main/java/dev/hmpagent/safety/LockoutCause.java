package dev.hmpagent.safety;

import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.text.Text;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a stop of the breakers is about, named for the people who read it (the terminal line, {@code agent status},
 * the audit, the alert command) and for the LLM after the unlock: the command that kept failing, as it was written,
 * and its last error. The last error of each recent action is kept in memory on the tick thread; after a restart a
 * stop names the command alone until it fails again.
 */
final class LockoutCause {
    /** Actions whose last error is kept: a streak long enough to lock is never older than these. */
    private static final int KEPT = 64;
    private static final int COMMAND_CHARS = 200;
    private static final int ERROR_CHARS = 240;

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
                .map(r -> Text.oneLine(r.value() == null || r.value().isBlank() ? r.name()
                        : r.value().replaceFirst("^\\{\"cmd_id\":\"[^\"]*\",", "{"), COMMAND_CHARS))
                .orElse("");
        if (command.isEmpty()) return "";
        String error = fingerprint == null ? null : lastError.get(fingerprint);
        return "; the command: " + command + (error == null ? "" : "; its last error: " + error);
    }
}
