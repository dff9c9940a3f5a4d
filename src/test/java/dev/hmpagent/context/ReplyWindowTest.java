package dev.hmpagent.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class ReplyWindowTest {
    /**
     * The replies shown at each of {@code replies} prompts, a new reply before each (ids 1, 2, …), the prompt changing
     * ahead of context 1 at the prompts numbered in {@code aheadChanged} (and at the first).
     */
    private static int[] run(int k, int replies, Set<Integer> aheadChanged) {
        int[] shown = new int[replies];
        long first = 0;
        for (int newest = 1; newest <= replies; newest++) {
            List<Long> ids = LongStream.rangeClosed(Math.max(1, newest - ReplyWindow.most(k) + 1), newest).boxed().toList();
            int n = ReplyWindow.shown(k, ids, first, newest == 1 || aheadChanged.contains(newest));
            shown[newest - 1] = n;
            first = n == 0 ? 0 : ids.get(ids.size() - n);
        }
        return shown;
    }

    @Test
    void the_window_grows_by_each_reply_and_drops_back_to_k_only_past_its_most() {
        assertThat(run(5, 20, Set.of())).as("history 5, replies 1 to 20: at most 14")
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 5, 6, 7, 8, 9, 10);
        assertThat(run(3, 12, Set.of())).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 3, 4, 5, 6);
        assertThat(run(1, 5, Set.of())).containsExactly(1, 2, 1, 2, 1);
        assertThat(run(0, 3, Set.of())).containsExactly(0, 0, 0);
    }

    @Test
    void when_the_prompt_changed_ahead_of_context_1_the_oldest_leave_then_at_no_extra_cost() {
        assertThat(run(5, 20, Set.of(7, 16))).as("the changes at replies 7 and 16 take the drops")
                .containsExactly(1, 2, 3, 4, 5, 6, 5, 6, 7, 8, 9, 10, 11, 12, 13, 5, 6, 7, 8, 9);
        assertThat(run(5, 8, Set.of(3, 6))).as("at most K replies to drop back to").containsExactly(1, 2, 3, 4, 5, 5, 6, 7);
    }

    @Test
    void a_window_that_no_longer_fits_k_starts_again_from_the_last_k() {
        List<Long> ids = LongStream.rangeClosed(3, 10).boxed().toList();   // history 3: at most 8
        assertThat(ReplyWindow.shown(3, ids, 2, false)).as("the previous first reply is older than the most shown").isEqualTo(3);
        assertThat(ReplyWindow.shown(3, ids, 9, false)).as("K grew: at least K").isEqualTo(3);
        assertThat(ReplyWindow.shown(3, ids, 5, false)).as("kept from the previous first reply").isEqualTo(6);
        assertThat(ReplyWindow.shown(3, List.of(), 5, false)).isZero();
    }

    @Test
    void it_says_what_history_k_shows() {
        assertThat(ReplyWindow.most(5)).isEqualTo(14);
        assertThat(ReplyWindow.describe(5)).isEqualTo("5 to 14 replies");
        assertThat(ReplyWindow.describe(1)).isEqualTo("1 to 2 replies");
        assertThat(ReplyWindow.describe(0)).isEqualTo("0 replies");
    }
}
