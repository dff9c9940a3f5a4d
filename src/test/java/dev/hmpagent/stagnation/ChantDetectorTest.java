package dev.hmpagent.stagnation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ChantDetectorTest {
    static boolean feedInChunks(ChantDetector d, String text, int chunk) {
        for (int i = 0; i < text.length(); i += chunk) {
            if (d.feed(text.substring(i, Math.min(text.length(), i + chunk)))) return true;
        }
        return false;
    }

    @Test
    void a_sentence_repeated_ten_times_is_chanting_and_the_loop_start_is_found() {
        String intro = "Let me think about the user's request carefully. ";
        String loop = "I will check the file again. ";
        ChantDetector d = new ChantDetector(20, 10, 400);
        assertThat(feedInChunks(d, intro + loop.repeat(40), 7)).isTrue();
        ChantDetector.Found f = d.found();
        assertThat(f.times()).isGreaterThanOrEqualTo(10);
        assertThat(f.loopStart()).isLessThanOrEqualTo(intro.length() + loop.length());
        assertThat(f.period().strip()).contains("check the file again");
    }

    @Test
    void nine_repeats_are_not_and_a_short_phrase_is_not() {
        String loop = "I will check the file again. ";
        assertThat(feedInChunks(new ChantDetector(20, 10, 400), "start " + loop.repeat(9) + "then something new.", 5))
                .isFalse();
        assertThat(feedInChunks(new ChantDetector(20, 10, 400), "ok ok ".repeat(100), 5)).as("period under 20").isFalse();
    }

    @Test
    void a_list_of_similar_items_is_not_chanting() {
        StringBuilder list = new StringBuilder("Here are the files:\n");
        for (int i = 0; i < 40; i++) list.append("- report-").append(1000 + i).append(".txt is ready to send\n");
        assertThat(feedInChunks(new ChantDetector(20, 10, 400), list.toString(), 9)).isFalse();
    }

    @Test
    void twenty_similar_commands_inside_the_command_block_are_exempt() {
        StringBuilder reply = new StringBuilder("Writing entries.\n# Commands:\n[");
        for (int i = 0; i < 20; i++) reply.append("{\"type\": \"diary_entry\", \"args\": {\"text\": \"same same\"}},\n");
        assertThat(feedInChunks(new ChantDetector(20, 10, 400), reply + "]", 11)).isFalse();
    }

    @Test
    void five_megabytes_of_one_character_in_a_thousand_deltas_cost_a_few_steps_per_character() {
        int length = 5_000_000;
        String delta = "A".repeat(length / 1000);
        ChantDetector d = new ChantDetector(20, 10, 400);
        // the guard only stops a hang from stalling the suite; the assertion is on the work counted
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            for (int i = 0; i < 1000; i++) assertThat(d.feed(delta)).as("one character is under the minimum period").isFalse();
        });
        assertThat(d.steps()).as("work per character").isLessThanOrEqualTo(3L * length);
    }
}
