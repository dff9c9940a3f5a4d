package dev.hmpagent.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The rule on plain strings: what a stored reply keeps and what it loses. */
class ReplySecretsTest {
    final ReplySecrets secrets = new ReplySecrets(List.of("plainlettersonlykeyvalue", "short", ""));

    @Test
    void a_token_in_a_command_is_redacted_and_the_json_around_it_stays_valid() {
        String reply = "{\"command\": \"curl -H \\\"Authorization: Bearer sk-live-abcdef1234567890\\\" https://x.test\"}";
        assertThat(secrets.redact(reply))
                .isEqualTo("{\"command\": \"curl -H \\\"Authorization: Bearer [redacted]\\\" https://x.test\"}");
    }

    @Test
    void values_under_secret_names_are_redacted_as_in_process_log_but_where_a_secret_lives_is_not() {
        assertThat(secrets.redact("{\"password\": \"hunter2\", \"secret_ref\": \"env:FORUM_PASSWORD\", \"login\": \"ann\"}"))
                .isEqualTo("{\"password\": \"[redacted]\", \"secret_ref\": \"env:FORUM_PASSWORD\", \"login\": \"ann\"}");
        assertThat(secrets.redact("run OPENAI_API_KEY=abc123 make; then echo done"))
                .isEqualTo("run OPENAI_API_KEY=[redacted] make; then echo done");
    }

    @Test
    void a_known_key_is_redacted_wherever_it_stands_but_a_short_or_blank_one_is_not_searched_for() {
        assertThat(secrets.redact("my key is plainlettersonlykeyvalue, short and sweet"))
                .isEqualTo("my key is [redacted], short and sweet");
    }

    @Test
    void a_private_key_block_goes_whole() {
        assertThat(secrets.redact("here:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n"
                + "-----END OPENSSH PRIVATE KEY-----\nthat was it")).isEqualTo("here:\n[redacted]\nthat was it");
    }

    @Test
    void ordinary_text_comes_back_unchanged() {
        String text = "I will run git show 3f2a9c1d, read notes/plan.md (OPENAI_API_KEY names the variable) and"
                + " set max_tokens=300; uuid 123e4567-e89b-12d3-a456-426614174000.\n# Commands:\n[{\"cmd_id\": \"c-1\","
                + " \"type\": \"diary_entry\", \"args\": {\"text\": \"token budget: 4k\"}}]";
        assertThat(secrets.redact(text)).isEqualTo(text);
    }

    @Test
    void a_reply_with_a_long_json_string_is_redacted_without_running_out_of_stack() {
        String huge = "{\"text\": \"" + "z\\n".repeat(200_000) + "\", \"token\": \"abc\"}";
        assertThat(secrets.redact(huge)).endsWith("\"token\": \"[redacted]\"}");
    }
}
