package dev.hmpagent.cycle;

/** Sampling settings sent with every main-cycle call. */
public record LlmParams(double temperature, int maxTokens) { }
