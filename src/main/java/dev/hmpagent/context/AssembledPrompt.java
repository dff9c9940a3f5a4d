package dev.hmpagent.context;

import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.ToolOffer;
import java.util.List;
import java.util.Map;

/**
 * The messages for one LLM call and what they showed: the note and process_log ids that made it
 * into the prompt (to mark read/seen once the call succeeds), the highest note id it presented
 * (shown, or listed in manual mode), how many items each context lost to the budget, and the text
 * shown fenced as data (from outside: messages, results, diary), so a reply that merely repeats a
 * command block from it can be recognised. {@link #parts()} is the same messages cut at their
 * context boundaries, so each context can be stored once however many ticks show it unchanged. {@link #offer()} is
 * what an LLM entry that takes commands as native tool calls gets instead of context 0's command-block contract.
 */
public record AssembledPrompt(List<Message> messages, List<Part> parts, List<Long> noteIdsShown, long noteWatermark,
                              List<Long> processIdsShown, int estimatedTokens, Map<Integer, Integer> trimmed,
                              List<DataShown> dataShown, ToolOffer offer) {

    /** One piece of outside text as the prompt showed it, and where it came from ("note 12"). */
    public record DataShown(String source, String text) { }

    /**
     * A piece of message {@code message} (an index into {@link #messages()}) rendering context {@code context}
     * (0-6). The parts of a message, in order, joined are exactly its content.
     */
    public record Part(int message, int context, String text) {
        public Part {
            java.util.Objects.requireNonNull(text, "text");
        }
    }

    public AssembledPrompt {
        messages = List.copyOf(messages);
        parts = List.copyOf(parts);
        noteIdsShown = List.copyOf(noteIdsShown);
        processIdsShown = List.copyOf(processIdsShown);
        trimmed = Map.copyOf(trimmed);
        dataShown = List.copyOf(dataShown);
        java.util.Objects.requireNonNull(offer, "offer");
        requireExactParts(messages, parts);
    }

    /** A prompt that offers no tools ({@link ToolOffer#NONE}): every LLM gets the command-block contract. */
    public AssembledPrompt(List<Message> messages, List<Part> parts, List<Long> noteIdsShown, long noteWatermark,
                           List<Long> processIdsShown, int estimatedTokens, Map<Integer, Integer> trimmed,
                           List<DataShown> dataShown) {
        this(messages, parts, noteIdsShown, noteWatermark, processIdsShown, estimatedTokens, trimmed, dataShown,
                ToolOffer.NONE);
    }

    /**
     * Context 0 as an LLM entry got it: the tools form when tools were offered ({@code tools}), the JSON form when a
     * JSON reply was asked for ({@code json}), else the block form.
     */
    public String contextZeroAsSent(boolean tools, boolean json) {
        if (tools && offer.any()) return offer.system().content();
        if (json && offer.anyJson()) return offer.jsonSystem().content();
        return messages.get(0).content();
    }

    /** The messages as an LLM entry got them: context 0 in the form it was sent ({@link #contextZeroAsSent}). */
    public List<Message> messagesAsSent(boolean tools, boolean json) {
        if (messages.get(0).role() != Message.Role.SYSTEM) return messages;
        List<Message> sent = new java.util.ArrayList<>(messages);
        sent.set(0, Message.system(contextZeroAsSent(tools, json)));
        return List.copyOf(sent);
    }

    private static void requireExactParts(List<Message> messages, List<Part> parts) {
        // compared in place, part by part: joining them copied the whole prompt twice a tick (issue 36)
        int[] at = new int[messages.size()];
        int previous = 0;
        for (Part p : parts) {
            if (p.message() < previous || p.message() >= messages.size()) {
                throw new IllegalArgumentException("part of message " + p.message() + " out of order or out of range");
            }
            previous = p.message();
            String content = messages.get(p.message()).content();
            int from = at[p.message()];
            // a message of one part is that part's very text (context 0): nothing to compare
            boolean same = from == 0 && content == p.text();
            if (!same && !content.regionMatches(from, p.text(), 0, p.text().length())) throw notJoined(p.message());
            at[p.message()] = from + p.text().length();
        }
        for (int i = 0; i < messages.size(); i++) {
            if (at[i] != messages.get(i).content().length()) throw notJoined(i);
        }
    }

    private static IllegalArgumentException notJoined(int message) {
        return new IllegalArgumentException("the parts of message " + message + " do not join to its content");
    }
}
