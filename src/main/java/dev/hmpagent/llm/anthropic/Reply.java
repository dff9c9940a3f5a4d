package dev.hmpagent.llm.anthropic;

import java.util.Objects;

/**
 * A parsed reply, or what of it has arrived, before usage is settled. {@code usage} is null when the server sent
 * none; {@code outputFinal} says whether its output count is the final one (a stream's message_delta, or a whole
 * message), not message_start's first guess.
 */
record Reply(String text, String model, String finishReason, ServerUsage usage, boolean outputFinal) {
    Reply {
        Objects.requireNonNull(text, "text");
        model = model == null ? "" : model;
        finishReason = finishReason == null ? "" : finishReason;
    }
}
