package dev.hmpagent.context;

import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.TokenEstimator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Contexts 1-6 as the user message (message 1), fitted to the prompt budget. The message is ordered stable-first: 6
 * goals, tasks and notebook, 3 pinned and requested entries (the two {@linkplain #stablePrefix() stable} contexts), 1
 * replies, 2 results, 4 messages, 5 time and tick last. Over budget, items leave context 1 first, then 3, 6, 2, 4, 5.
 *
 * <p>Fitting never renders the message: each section keeps the count of code points it renders to, and the message's
 * count is their sum, the blank lines between sections, less the white space stripping takes from its end (its start
 * is context 6's header, never white space). The token estimate of that count is the estimate of the rendered text.
 */
final class UserMessage {
    private final Section replies;
    /** 6, 3, 1, 2, 4, 5. */
    private final List<Section> promptOrder;
    /** 1, 3, 6, 2, 4, 5. */
    private final List<Section> trimOrder;
    /** How many of the leading sections in {@link #promptOrder} change only when their content does. */
    private static final int STABLE_SECTIONS = 2;

    UserMessage(Section notebook, Section pinned, Section replies, Section processes, Section incoming,
                Section settings) {
        this.replies = Objects.requireNonNull(replies, "replies");
        this.promptOrder = List.of(notebook, pinned, replies, processes, incoming, settings);
        this.trimOrder = List.of(replies, pinned, notebook, processes, incoming, settings);
    }

    /** The estimated tokens of the message as it would render now. */
    int tokens() {
        int codePoints = promptOrder.size() - 1;   // the blank line that opens every section but the first
        for (Section s : promptOrder) codePoints += s.codePoints();
        return TokenEstimator.ofCodePoints(codePoints - promptOrder.get(promptOrder.size() - 1).trailingWhitespace());
    }

    /**
     * Fits the message to {@code budget} tokens: over it, context 1's window first falls back by {@code windowExtra}
     * replies (the oldest leave together, not as a trim), then items leave one by one in trim order while over it.
     */
    void fit(int budget, int windowExtra) {
        if (windowExtra > 0 && tokens() > budget) replies.leave(windowExtra);
        for (Section s : trimOrder) {
            while (tokens() > budget && s.dropOne()) {
                // each drop adjusts the section's own count; the loop asks again
            }
        }
    }

    /** How many items the budget took from each context that lost any. */
    Map<Integer, Integer> trimmed() {
        Map<Integer, Integer> trimmed = new HashMap<>();
        promptOrder.stream().filter(s -> s.dropped() > 0).forEach(s -> trimmed.put(s.index, s.dropped()));
        return trimmed;
    }

    /** The outside text the message shows, in message order. */
    List<AssembledPrompt.DataShown> dataShown() {
        return promptOrder.stream().flatMap(s -> s.dataShown().stream()).toList();
    }

    /**
     * The message in parts, sections apart by a blank line: each section one part (context 1 one per item: a reply is
     * shown several ticks running, so each is stored once), the whole stripped of leading and trailing white space.
     * Joined, the parts are the message. The blank line between two sections opens the later one, so an item's part
     * is the same text wherever in its section it stands.
     */
    List<AssembledPrompt.Part> parts() {
        List<Integer> contexts = new ArrayList<>();
        List<String> pieces = new ArrayList<>();
        for (Section s : promptOrder) {
            List<String> own = s == replies ? new ArrayList<>(s.pieces()) : new ArrayList<>(List.of(s.render()));
            if (!pieces.isEmpty()) own.set(0, "\n" + own.get(0));
            own.forEach(piece -> {
                contexts.add(s.index);
                pieces.add(piece);
            });
        }
        List<String> stripped = strip(pieces);
        List<AssembledPrompt.Part> parts = new ArrayList<>(stripped.size());
        for (int i = 0; i < stripped.size(); i++) parts.add(new AssembledPrompt.Part(1, contexts.get(i), stripped.get(i)));
        return parts;
    }

    /**
     * The message made of {@code parts}: its {@link Message#stablePrefix()} ends where context 1 begins (after the
     * stable contexts, so a provider with explicit cache breakpoints can put one there), and a seam after each reply.
     */
    Message message(List<AssembledPrompt.Part> parts) {
        StringBuilder text = new StringBuilder();
        parts.forEach(p -> text.append(p.text()));
        return Message.user(text.toString()).withStablePrefix(stablePrefix(parts)).withSeams(replySeams(parts));
    }

    private int stablePrefix(List<AssembledPrompt.Part> parts) {
        List<Integer> stable = promptOrder.subList(0, STABLE_SECTIONS).stream().map(s -> s.index).toList();
        int chars = 0;
        for (AssembledPrompt.Part p : parts) {
            if (!stable.contains(p.context())) break;
            chars += p.text().length();
        }
        return chars;
    }

    /**
     * Where each of context 1's replies ends in the message (its first parts after the header): the next tick repeats
     * them and appends its reply, so a breakpoint at the last one is found on a block boundary.
     */
    private List<Integer> replySeams(List<AssembledPrompt.Part> parts) {
        int shown = replies.rowIds().size();
        List<Integer> seams = new ArrayList<>();
        int chars = 0;
        int item = -1;   // the header is context 1's part 0
        for (AssembledPrompt.Part p : parts) {
            chars += p.text().length();
            if (p.context() != replies.index) continue;
            item++;
            if (item >= 1 && item <= shown) seams.add(chars);
        }
        return seams;
    }

    /** The pieces of {@code String.join("", pieces).strip()}: white space cut from the ends of the joined text. */
    static List<String> strip(List<String> pieces) {
        List<String> out = new ArrayList<>(pieces);
        for (int i = 0; i < out.size(); i++) {
            out.set(i, out.get(i).stripLeading());
            if (!out.get(i).isEmpty()) break;
        }
        for (int i = out.size() - 1; i >= 0; i--) {
            out.set(i, out.get(i).stripTrailing());
            if (!out.get(i).isEmpty()) break;
        }
        return out;
    }
}
