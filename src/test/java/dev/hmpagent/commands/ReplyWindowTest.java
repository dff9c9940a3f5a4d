package dev.hmpagent.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class ReplyWindowTest {
    private static int[] shown(int k, int newestIds) {
        return LongStream.rangeClosed(1, newestIds).mapToInt(id -> ReplyWindow.shown(k, id)).toArray();
    }

    @Test
    void the_window_grows_by_each_reply_and_its_oldest_half_k_leave_together() {
        assertThat(shown(5, 12)).as("history 5, newest reply 1 to 12").containsExactly(5, 5, 5, 5, 5, 6, 7, 5, 6, 7, 5, 6);
        assertThat(shown(3, 10)).containsExactly(3, 3, 3, 4, 3, 4, 3, 4, 3, 4);
        assertThat(shown(2, 5)).as("a step of one: the window slides").containsExactly(2, 2, 2, 2, 2);
        assertThat(shown(1, 3)).containsExactly(1, 1, 1);
        assertThat(shown(0, 3)).containsExactly(0, 0, 0);
    }

    @Test
    void it_says_what_history_k_shows() {
        assertThat(ReplyWindow.most(5)).isEqualTo(7);
        assertThat(ReplyWindow.describe(5)).isEqualTo("5 to 7 replies");
        assertThat(ReplyWindow.describe(2)).isEqualTo("2 replies");
        assertThat(ReplyWindow.describe(1)).isEqualTo("1 reply");
        assertThat(ReplyWindow.describe(0)).isEqualTo("0 replies");
    }
}
