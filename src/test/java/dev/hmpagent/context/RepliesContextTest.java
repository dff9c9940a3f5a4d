package dev.hmpagent.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Context 1 item by item: each reply with its tick, its novelty (two decimals, none while not yet compared), whether it
 * was cut short or is the reflex's marker, its reflection and its text, oldest first. It reads only the columns it
 * shows (issue 36).
 */
class RepliesContextTest {
    @TempDir Path dir;

    @Test
    void each_reply_shows_its_tick_novelty_flags_reflection_and_text_oldest_first() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-30T10:00:00Z"))) {
            ResponsesDao responses = store.tables().responses();
            responses.add(3, "I will read the backup log.", "new: the log", 0.875, 120, 30, false, false, false, "m");
            responses.add(4, "I will rea", null, null, 130, 3, true, true, false, "m");
            responses.add(5, "[anti-stagnation reflex] repeated", "", 0.0, 140, 30, false, false, true, "m");
            RepliesContext context = new RepliesContext(responses);

            List<ResponsesDao.Shown> window = context.window(5, false, 0);
            String shown = context.render(5, window, List.of()).render();

            assertThat(window).extracting(ResponsesDao.Shown::tickId).containsExactly(3L, 4L, 5L);
            assertThat(shown).endsWith("[tick 3, novelty 0.88]\nreflection: new: the log\nI will read the backup log.\n"
                    + "[tick 4, cut short before it was complete]\nI will rea\n"
                    + "[tick 5, novelty 0.00, anti-stagnation]\n[anti-stagnation reflex] repeated\n");
        }
    }
}
