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
    void nine_repeats_are_not_and_a_short_phrase_under_thirty_times_is_not() {
        String loop = "I will check the file again. ";
        assertThat(feedInChunks(new ChantDetector(20, 10, 400), "start " + loop.repeat(9) + "then something new.", 5))
                .isFalse();
        assertThat(feedInChunks(new ChantDetector(20, 10, 400), "ok ".repeat(29) + "fine.", 5)).as("29 times").isFalse();
    }

    @Test
    void a_short_phrase_said_thirty_times_is_chanting_with_or_without_separators() {
        // issue 35: a small model wrote 300M 52 times in one reply, and it was shown as a wall
        for (String sep : new String[] {"", " ", "\n", ", "}) {
            ChantDetector d = new ChantDetector(20, 10, 400);
            assertThat(feedInChunks(d, "The models are 100M, 200M and " + ("300M" + sep).repeat(52), 3)).as("[%s]", sep)
                    .isTrue();
            // the loop may begin one character early: "and 300M 300M" repeats " 300M" from the space on
            assertThat(d.found().loopStart()).as("[%s]", sep).isBetween(29, 30);
            assertThat(d.found().period() + d.found().period()).contains("300M" + sep);
            assertThat(d.found().times()).isBetween(29, 30);
        }
        assertThat(feedInChunks(new ChantDetector(20, 10, 400), "ok ok ".repeat(100), 5)).as("ok ok ok …").isTrue();
    }

    @Test
    void a_wall_of_one_line_is_cut_at_its_thirtieth_line() {
        ChantDetector d = new ChantDetector(20, 10, 400);
        assertThat(feedInChunks(d, "Sizes:\n" + "- 300M\n".repeat(128), 16)).isTrue();
        assertThat(d.found().loopStart()).as("from the newline before the first line").isEqualTo("Sizes:".length());
        assertThat(d.found().period()).isEqualTo("\n- 300M");
        assertThat(d.found().times()).isEqualTo(30);
    }

    @Test
    void rules_numbers_base64_and_lists_of_short_items_are_not_chanting() {
        java.util.Random random = new java.util.Random(35);
        byte[] bytes = new byte[3000];
        random.nextBytes(bytes);
        StringBuilder list = new StringBuilder();
        for (int i = 1; i <= 60; i++) list.append(i).append(". ").append((char) ('a' + i % 26)).append('\n');
        String[] texts = {"| a | b |\n" + "|---".repeat(200) + "|\n", "=-".repeat(300), "- ".repeat(300),
            "2^1000 = " + java.math.BigInteger.TWO.pow(1000) + " and " + "12".repeat(100) + " and 1" + "0".repeat(300),
            java.util.Base64.getEncoder().encodeToString(bytes), list.toString()};
        for (String text : texts) {
            assertThat(feedInChunks(new ChantDetector(20, 10, 400), text, 7)).as(text).isFalse();
        }
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
