package dev.hmpagent.store;

/** A row of {@code llm_recent_responses}. */
public record ResponseRow(long id, long tickId, String content, String reflection, Double noveltyScore,
                          int promptTokens, int completionTokens, boolean tokensEstimated, boolean interrupted,
                          boolean stagnation, String llmId, String timestamp) { }
