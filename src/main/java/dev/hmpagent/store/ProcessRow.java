package dev.hmpagent.store;

/** A row of {@code process_log}: one command or external process and what came of it. */
public record ProcessRow(long id, String name, String cmdId, long tickId, String value, String status,
                         String result, double painLevel, String fingerprint, String timestamp) {
    public ProcessStatus processStatus() {
        return ProcessStatus.fromColumn(status);
    }

    public boolean failed() {
        return processStatus().failed();
    }
}
