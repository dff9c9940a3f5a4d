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
