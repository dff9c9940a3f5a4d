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
        if (text == null || text.isEmpty()) return 0;
        return Math.max(1, (text.codePointCount(0, text.length()) + 3) / 4);
    }

    public static int estimate(List<Message> messages) {
        int total = 0;
        for (Message m : messages) total += PER_MESSAGE_OVERHEAD + estimate(m.content());
        return Math.max(1, total);
    }
}
