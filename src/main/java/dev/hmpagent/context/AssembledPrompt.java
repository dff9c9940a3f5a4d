package dev.hmpagent.context;

import dev.hmpagent.llm.Message;
import java.util.List;
import java.util.Map;

/**
 * The messages for one LLM call and what they showed: the note and process_log ids that made it
 * into the prompt (to mark read/seen once the call succeeds), the highest note id it presented
 * (shown, or listed in manual mode) and how many items each context lost to the budget.
 */
public record AssembledPrompt(List<Message> messages, List<Long> noteIdsShown, long noteWatermark,
                              List<Long> processIdsShown, int estimatedTokens, Map<Integer, Integer> trimmed) {
    public AssembledPrompt {
        messages = List.copyOf(messages);
        noteIdsShown = List.copyOf(noteIdsShown);
        processIdsShown = List.copyOf(processIdsShown);
        trimmed = Map.copyOf(trimmed);
    }
}
