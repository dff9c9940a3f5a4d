package dev.hmpagent.commands;

/**
 * How many of its latest replies context 1 shows the LLM for history K: at least K, and the oldest leave ⌈K/2⌉ at a
 * time. A window that slid by one reply a tick would change context 1 from its first reply at every tick, and with it
 * everything after (no provider's prompt cache could reuse it); this one grows by the new reply and drops its oldest
 * together, so on the other ticks the prompt is unchanged up to the end of the reply before. A step of ⌈K/2⌉ rather
 * than K shows half as many extra replies for a little less reuse (measured: {@code scripts/bench prompt}).
 */
public final class ReplyWindow {
    private ReplyWindow() { }

    /** Replies shown when the newest has id {@code newestId} (ids count replies; a gap only moves the next drop). */
    public static int shown(int k, long newestId) {
        if (k <= 0) return 0;
        return newestId <= k ? k : k + (int) ((newestId - k) % step(k));
    }

    /** The most replies shown for history {@code k}. */
    public static int most(int k) {
        return k <= 0 ? 0 : k + step(k) - 1;
    }

    /** "5 replies" or "5 to 7 replies": what history {@code k} shows. */
    public static String describe(int k) {
        return most(k) == k ? Lines.count(k, "reply", "replies") : k + " to " + most(k) + " replies";
    }

    private static int step(int k) {
        return (k + 1) / 2;
    }
}
