package dev.hmpagent.context;

import dev.hmpagent.llm.Message;
import java.util.List;
import java.util.Map;

/**
 * The messages for one LLM call and what they showed: the note and process_log ids that made it
 * into the prompt (to mark read/seen once the call succeeds), the highest note id it presented
 * (shown, or listed in manual mode), how many items each context lost to the budget, and the text
 * shown fenced as data (from outside: messages, results, diary), so a reply that merely repeats a
 * command block from it can be recognised.
 */
public record AssembledPrompt(List<Message> messages, List<Long> noteIdsShown, long noteWatermark,
                              List<Long> processIdsShown, int estimatedTokens, Map<Integer, Integer> trimmed,
                              List<DataShown> dataShown) {

    /** One piece of outside text as the prompt showed it, and where it came from ("note 12"). */
    public record DataShown(String source, String text) { }

    public AssembledPrompt {
        messages = List.copyOf(messages);
        noteIdsShown = List.copyOf(noteIdsShown);
        processIdsShown = List.copyOf(processIdsShown);
        trimmed = Map.copyOf(trimmed);
        dataShown = List.copyOf(dataShown);
    }
}
