package dev.hmpagent.process;

import java.util.Objects;

/** What {@link ProcessRunner#start} did right away. Only {@link Started} is ever followed by an onFinish call. */
public sealed interface StartResult {

    /** The process runs; its {@link ProcessResult} arrives through onFinish, exactly once. */
    record Started(long id, long pid) implements StartResult {}

    /** Not started because the concurrency cap is reached; nothing ran and onFinish is never called. */
    record Refused(String reason) implements StartResult {
        public Refused {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * Could not start; nothing ran and onFinish is never called. The result (status
     * {@link ProcessEnd#FAILED_TO_START}) is here so the caller can record it like any other.
     */
    record FailedToStart(ProcessResult result) implements StartResult {
        public FailedToStart {
            Objects.requireNonNull(result, "result");
            if (result.status() != ProcessEnd.FAILED_TO_START) {
                throw new IllegalArgumentException("status " + result.status());
            }
        }

        public String reason() {
            return result.reason();
        }
    }
}
