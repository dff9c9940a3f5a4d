package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A reply while it streams: its words wrapped, its command block shown as one line a command, never as JSON. */
class LiveReplyTest {
    static final String THOUGHT = "The person asks for the weather in Paris; I will look it up and answer.\n\n";

    @Test
    void once_the_command_block_starts_its_json_is_replaced_by_a_line_a_command() {
        String block = "# Commands:\n```json\n[{\"cmd_id\": \"c-1\", \"type\": \"shell\", \"args\": {\"command\":"
                + " \"curl -s wttr.in/Paris\"}, \"description\": \"look\"},\n {\"cmd_id\": \"c-2\", \"type\":"
                + " \"send_message\", \"args\": {\"text\": \"Looking it up";
        assertThat(LiveReply.rows(THOUGHT + block, 6, 40)).containsExactly(
                "The person asks for the weather in",
                "Paris; I will look it up and answer.",
                "▸ shell: curl -s wttr.in/Paris",
                "▸ send_message: Looking it up");
    }

    @Test
    void before_the_first_command_is_read_it_says_commands_are_coming() {
        assertThat(LiveReply.rows(THOUGHT + "# Commands:\n```json\n[{\"cmd_", 6, 80))
                .containsExactly("The person asks for the weather in Paris; I will look it up and answer.",
                        "▸ preparing commands…");
        assertThat(LiveReply.rows("**Команды:**\n{\"type\": \"diary_entry\"", 6, 80))
                .containsExactly("▸ diary_entry");
    }

    @Test
    void many_commands_take_at_most_half_the_region() {
        StringBuilder block = new StringBuilder("# Commands:\n[");
        for (int i = 1; i <= 5; i++) block.append("{\"type\": \"file_read\", \"args\": {\"path\": \"f").append(i).append("\"}},");
        assertThat(LiveReply.rows("Reading.\n" + block, 6, 80))
                .containsExactly("Reading.", "▸ file_read: f1", "▸ file_read: f2", "▸ … 5 commands in all");
    }

    @Test
    void a_marker_inside_a_sentence_is_prose() {
        assertThat(LiveReply.rows("I will write # Commands: below, then the JSON", 6, 80))
                .containsExactly("I will write # Commands: below, then the JSON");
    }

    @Test
    void drawn_at_every_delta_it_shows_what_a_draw_of_the_whole_reply_shows() {
        StringBuilder many = new StringBuilder("# Commands:\n[");
        for (int i = 1; i <= 5; i++) many.append("{\"type\": \"file_read\", \"args\": {\"path\": \"f").append(i).append("\"}},");
        List<String> replies = List.of(
                THOUGHT + "# Commands:\n```json\n[{\"cmd_id\": \"c-1\", \"type\": \"shell\", \"args\": {\"command\":"
                        + " \"curl -s wttr.in/Paris\"}},\n {\"type\": \"send_message\", \"args\": {\"text\": \"" + "x".repeat(900),
                "I will write\n# Commands: below, then the JSON\n# Commands:\n[{\"type\": \"idle\"}]",
                "Reading.\n" + many,
                "prose with \"type\": \"not_a_command\" before the block\n## Commands\n[{\"type\": \"help\"}]");
        java.util.Random random = new java.util.Random(7);
        for (String reply : replies) {
            for (int width : new int[] {40, 80}) {
                LiveReply live = new LiveReply();
                StringBuilder streamed = new StringBuilder();
                int at = 0;
                while (at < reply.length()) {
                    int next = Math.min(reply.length(), at + 1 + random.nextInt(7));
                    streamed.append(reply, at, next);
                    at = next;
                    assertThat(live.rows(streamed, 6, width)).as("after %d chars of %s", at, reply)
                            .isEqualTo(LiveReply.rows(streamed.toString(), 6, width));
                }
            }
        }
    }
}
