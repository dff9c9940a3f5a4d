package dev.hmpagent.llm.openai;

/** Token counts exactly as a server reported them (may be zeros). */
record ServerUsage(int promptTokens, int completionTokens) { }
