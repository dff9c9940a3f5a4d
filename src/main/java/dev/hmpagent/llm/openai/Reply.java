package dev.hmpagent.llm.openai;

import java.util.Objects;

/** A parsed reply before usage is settled; {@code usage} is null when the server sent none. */
record Reply(String text, String model, String finishReason, ServerUsage usage) {
    Reply {
        Objects.requireNonNull(text, "text");
        model = model == null ? "" : model;
        finishReason = finishReason == null ? "" : finishReason;
    }
}
