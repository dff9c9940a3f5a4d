package dev.hmpagent.llm;

import java.util.List;
import java.util.Objects;

/**
 * One chat message sent to or received from a model, with two hints for an adapter whose provider caches prompts by
 * explicit breakpoints (Anthropic's {@code cache_control}); others ignore them.
 *
 * <p>{@code stablePrefix} is how many leading characters of the content are expected to stay byte-identical from one
 * tick to the next (the slow contexts): a breakpoint may go there. 0 means no hint.
 *
 * <p>{@code seams} are the ends, in ascending order after the stable prefix, of the pieces of a part that grows by
 * appending (context 1, one reply a piece): the next tick's message is expected to repeat the content up to the last
 * seam and to have a seam there too. Text blocks cut at the seams with a breakpoint at the last one let the next
 * request, whose breakpoint is one piece further, find this one's on a block boundary. Empty means no hint.
 */
public record Message(Role role, String content, int stablePrefix, List<Integer> seams) {

    /** Who speaks. Each provider's adapter names the roles in its own wire format; none of that lives here. */
    public enum Role { SYSTEM, USER, ASSISTANT;
        /** Our own word for the role, as stored with a tick's prompt and shown by `agent log`. */
        public String word() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    public Message {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
        if (stablePrefix < 0 || stablePrefix > content.length()) {
            throw new IllegalArgumentException("stablePrefix " + stablePrefix + " outside 0.." + content.length());
        }
        seams = List.copyOf(Objects.requireNonNull(seams, "seams"));
        int last = stablePrefix;
        for (int seam : seams) {
            if (seam <= last || seam > content.length()) {
                throw new IllegalArgumentException("seams " + seams + " are not ascending within " + stablePrefix
                        + ".." + content.length());
            }
            last = seam;
        }
    }

    /** A message with a stable-prefix hint and no seams. */
    public Message(Role role, String content, int stablePrefix) {
        this(role, content, stablePrefix, List.of());
    }

    /** A message with no cache hint. */
    public Message(Role role, String content) {
        this(role, content, 0);
    }

    /** The same message with a hint that its first {@code chars} characters stay the same from tick to tick. */
    public Message withStablePrefix(int chars) {
        return new Message(role, content, chars, seams);
    }

    /** The same message with the ends of the pieces of its growing part ({@link #seams()}). */
    public Message withSeams(List<Integer> ends) {
        return new Message(role, content, stablePrefix, ends);
    }

    public static Message system(String content) { return new Message(Role.SYSTEM, content); }

    public static Message user(String content) { return new Message(Role.USER, content); }

    public static Message assistant(String content) { return new Message(Role.ASSISTANT, content); }
}
