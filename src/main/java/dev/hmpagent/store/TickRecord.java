package dev.hmpagent.store;

import java.time.Instant;

/** One {@code agent_log} row: what a tick did. */
public record TickRecord(long tickId, Instant startedAt, Instant endedAt, String state, String wakeReason,
                         boolean llmCalled, int promptTokens, int completionTokens, int commandsRun,
                         int commandsFailed, boolean stagnation, String error) {
    public long durationMs() { return Math.max(0, endedAt.toEpochMilli() - startedAt.toEpochMilli()); }
}
