package dev.hmpagent.store;

import java.time.Instant;

/**
 * One {@code agent_log} row: what a tick did. {@code promptTokens} and {@code completionTokens} are the main call's;
 * {@code comparisonTokens} those of step 5's comparison call, counted with them in every total.
 */
public record TickRecord(long tickId, Instant startedAt, Instant endedAt, String outcome, String wakeReason,
                         boolean llmCalled, int promptTokens, int completionTokens, int commandsRun,
                         int commandsFailed, boolean stagnation, String error, int comparisonTokens) {
    /** A tick with no comparison call. */
    public TickRecord(long tickId, Instant startedAt, Instant endedAt, String outcome, String wakeReason,
                      boolean llmCalled, int promptTokens, int completionTokens, int commandsRun, int commandsFailed,
                      boolean stagnation, String error) {
        this(tickId, startedAt, endedAt, outcome, wakeReason, llmCalled, promptTokens, completionTokens, commandsRun,
                commandsFailed, stagnation, error, 0);
    }

    /** A tick that ended without a reply to act on: no tokens, no commands run, no stagnation. */
    public static TickRecord withoutReply(long tickId, Instant startedAt, Instant endedAt, String outcome,
                                          String wakeReason, boolean llmCalled, String error) {
        return new TickRecord(tickId, startedAt, endedAt, outcome, wakeReason, llmCalled, 0, 0, 0, 0, false, error);
    }

    public long durationMs() { return Math.max(0, endedAt.toEpochMilli() - startedAt.toEpochMilli()); }
}
