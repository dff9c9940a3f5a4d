package dev.hmpagent.context;

import dev.hmpagent.text.Text;
import java.util.List;

/**
 * Which of its latest replies context 1 shows the LLM for history K: at least K and at most {@link #most(int)}; the
 * oldest leave together, and when they can, at a tick whose prompt changes before context 1 anyway.
 *
 * <p>A window that slid by one reply a tick would change context 1 from its first reply at every tick, and with it
 * everything after it: no provider's prompt cache could reuse it. This one keeps its first reply while it grows by
 * each new one, so on most ticks the prompt is unchanged up to the end of the reply before. It drops back to the last
 * K replies when something ahead of context 1 changed (context 0, 6 or 3: the prompt differs from there on whatever
 * context 1 does, so the drop costs nothing), and otherwise only when it would pass its most, 3K − 1. The wide
 * most lets nearly every drop wait for such a change: measured with {@code scripts/bench prompt}, 82.8 % of the
 * request bytes were an unchanged prefix of the request before, against 73.3 % for a window of K to K + ⌈K/2⌉ − 1
 * dropping on its own count, for 18 % more bytes sent and 23 % fewer read uncached. The prompt budget caps it too:
 * when it is short, the window falls back to its last K replies before any of those is left out.
 */
public final class ReplyWindow {
    private ReplyWindow() { }

    /**
     * How many of the latest replies to show.
     *
     * @param k              history K
     * @param ids            the ids of the latest replies, oldest first: at most {@link #most(int) most(k)} of them
     * @param previousFirst  the id of the oldest reply the previous prompt showed (0 when there was none)
     * @param aheadChanged   whether the prompt changed ahead of context 1 since the previous one (always true for a
     *                       run's first prompt)
     */
    public static int shown(int k, List<Long> ids, long previousFirst, boolean aheadChanged) {
        if (k <= 0 || ids.isEmpty()) return 0;
        int atLeast = Math.min(k, ids.size());
        if (aheadChanged || previousFirst <= 0 || previousFirst < ids.get(0)) return atLeast;
        int kept = (int) ids.stream().filter(id -> id >= previousFirst).count();
        return Math.max(atLeast, kept);
    }

    /** The most replies shown for history {@code k}: 3K − 1, so that a drop can wait up to 2K ticks for a change ahead. */
    public static int most(int k) {
        return k <= 0 ? 0 : 3 * k - 1;
    }

    /** "5 to 14 replies": what history {@code k} shows. */
    public static String describe(int k) {
        return most(k) == k ? Text.count(k, "reply", "replies") : k + " to " + most(k) + " replies";
    }
}
