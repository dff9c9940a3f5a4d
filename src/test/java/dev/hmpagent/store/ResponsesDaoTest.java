package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Step 5's exact-repeat lookup: the newest of the last N full replies with a hash, found through the hash's index. */
class ResponsesDaoTest {
    @TempDir
    Path dir;

    private static void reply(ResponsesDao responses, long tick, String hash, boolean interrupted, boolean stagnation) {
        responses.add(tick, "reply " + tick, null, null, 0, 0, false, interrupted, stagnation, "m",
                new ResponsesDao.Compared(List.of(), List.of(), List.of(), "local", "new", 0, hash));
    }

    @Test
    void a_repeat_counts_within_the_last_full_replies_only() {
        try (Store store = Store.open(dir.resolve("a.db"), Clock.systemUTC())) {
            ResponsesDao responses = store.tables().responses();
            reply(responses, 1, "h1", false, false);
            reply(responses, 2, "h2", false, false);
            reply(responses, 3, "h1", false, false);
            reply(responses, 4, "h4", true, false);    // cut short: not a full reply, not counted
            reply(responses, 5, "h5", false, true);    // the reflex's short row: not counted
            reply(responses, 6, "h6", false, false);

            assertThat(responses.tickWithHash("h1", 10)).as("the newest of two").contains(3L);
            assertThat(responses.tickWithHash("h1", 2)).as("ticks 6 and 3 are the last two full replies").contains(3L);
            assertThat(responses.tickWithHash("h1", 1)).as("only tick 6").isEmpty();
            assertThat(responses.tickWithHash("h2", 3)).as("6, 3, 2").contains(2L);
            assertThat(responses.tickWithHash("h2", 2)).isEmpty();
            assertThat(responses.tickWithHash("h4", 10)).as("a reply cut short is never repeated").isEmpty();
            assertThat(responses.tickWithHash("h5", 10)).isEmpty();
            assertThat(responses.tickWithHash("nowhere", 10)).isEmpty();
            assertThat(responses.tickWithHash("h6", 0)).isEmpty();
        }
    }
}
