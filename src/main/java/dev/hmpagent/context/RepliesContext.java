package dev.hmpagent.context;

import dev.hmpagent.store.ReflexDao;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.text.Text;
import java.util.List;
import java.util.Objects;

/**
 * Context 1: the LLM's latest replies with their reflections, in a window that keeps its first reply while it grows
 * ({@link ReplyWindow}), then what the anti-stagnation reflex asks of the LLM now. One part per item in the prompt.
 */
final class RepliesContext {
    static final int INDEX = 1;
    static final int MAX_REPLY_CHARS = 4_000;

    private final ResponsesDao responses;

    RepliesContext(ResponsesDao responses) {
        this.responses = Objects.requireNonNull(responses, "responses");
    }

    /**
     * The replies the window shows (at least K, the oldest leaving together, at a tick whose prompt changed ahead of
     * context 1 when they can), oldest first.
     *
     * @param firstBefore the id of the oldest reply the previous prompt showed (0: none)
     */
    List<ResponsesDao.Shown> window(int k, boolean aheadChanged, long firstBefore) {
        List<ResponsesDao.Shown> latest = responses.window(ReplyWindow.most(k));
        int shown = ReplyWindow.shown(k, latest.stream().map(ResponsesDao.Shown::id).toList(), firstBefore, aheadChanged);
        return latest.subList(latest.size() - shown, latest.size());
    }

    Section render(int k, List<ResponsesDao.Shown> replies, List<ReflexDao.Item> reflex) {
        String title = "your last replies (oldest first"
                + (ReplyWindow.most(k) == k ? ")" : ", " + ReplyWindow.describe(k) + ")");
        Section s = new Section(INDEX, title, "(none yet: this is your first thought)", true, 0);
        for (ResponsesDao.Shown r : replies) s.add(item(r), r.id());
        for (ReflexDao.Item i : reflex) {
            s.add("[anti-stagnation reflex, " + i.strategy() + ", since tick " + i.tickId() + "] " + i.text(), 0);
        }
        return s;
    }

    private static String item(ResponsesDao.Shown r) {
        String novelty = r.noveltyScore() == null ? "" : ", novelty " + Text.twoDecimals(r.noveltyScore());
        String flags = (r.interrupted() ? ", cut short before it was complete" : "")
                + (r.stagnation() ? ", anti-stagnation" : "");
        String reflection = r.reflection() == null || r.reflection().isBlank() ? "" : "\nreflection: " + r.reflection();
        return "[tick " + r.tickId() + novelty + flags + "]" + reflection + "\n" + Section.clip(r.content(), MAX_REPLY_CHARS);
    }
}
