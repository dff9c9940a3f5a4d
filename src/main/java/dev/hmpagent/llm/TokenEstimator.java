package dev.hmpagent.llm;

import java.util.List;

/**
 * Rough token counts for when a server sends no usage, and for the prompt budget:
 * about four characters a token, a few tokens of overhead per message, never 0.
 */
public final class TokenEstimator {
    private static final int PER_MESSAGE_OVERHEAD = 4;

    private TokenEstimator() { }

    public static int estimate(String text) {
        return text == null ? 0 : ofCodePoints(text.codePointCount(0, text.length()));
    }

    /** The estimate of a text of {@code codePoints} code points, for a caller that keeps a running count. */
    public static int ofCodePoints(int codePoints) {
        return codePoints == 0 ? 0 : Math.max(1, (codePoints + 3) / 4);
    }

    /**
     * The completion tokens of a reply the server did not count: at least 1 for a reply that ended (even an empty
     * one cost its end token), but 0 for one cancelled before any of it arrived: nothing was generated for us, and a
     * person who pressed Ctrl-C at "thinking… 2 s" must not see "1 out".
     */
    public static int reply(String text, boolean interrupted) {
        int n = estimate(text);
        return interrupted && n == 0 ? 0 : Math.max(1, n);
    }

    /** Counts for a call whose server sent none: the request's estimate in, {@link #reply} out. */
    public static Usage usage(LlmRequest request, String reply, boolean interrupted) {
        return new Usage(Math.max(1, estimate(request)), reply(reply, interrupted), true);
    }

    /** A whole request: its messages and the tools it offers (their names, descriptions and schemas are sent too). */
    public static int estimate(LlmRequest request) {
        int tools = 0;
        for (ToolSpec t : request.tools()) {
            tools += PER_MESSAGE_OVERHEAD + estimate(t.name()) + estimate(t.description()) + estimate(t.schema().toString());
        }
        return estimate(request.messages()) + tools;
    }

    public static int estimate(List<Message> messages) {
        int total = 0;
        for (Message m : messages) total += PER_MESSAGE_OVERHEAD + estimate(m.content());
        return Math.max(1, total);
    }
}
