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
    void a_hash_in_a_file_name_a_git_sha_and_a_uuid_stay_verbatim_so_two_reads_stay_two() {
        String first = "cat eps1.7_0e9f4b2d6c1a8e3f5b7d9c2a4e6f8b1d.m4v";
        String second = "cat eps1.7_9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d.m4v";
        String sha = "git show 4b825dc642cb6eb9a060e54bf8d69288fbee4904; git log 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39";
        String uuid = "rm -r runs/123e4567-e89b-12d3-a456-426614174000 d41d8cd98f00b204e9800998ecf8427e";

        for (String text : List.of(first, second, sha, uuid)) {
            assertThat(secrets.redact(text)).isEqualTo(text);
            assertThat(secrets.redactResult(text)).isEqualTo(text);
        }
    }

    @Test
    void words_in_a_providers_key_format_are_redacted_in_a_reply_and_in_a_result() {
        List<String> keys = List.of("sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe", "sk-proj-Q1w2E3r4T5y6U7i8O9p0",
                "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
                "AKIAIOSFODNN7EXAMPLE", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
                "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", "glpat-x1y2z3w4v5u6t7s8r9q0");
        for (String key : keys) {
            assertThat(secrets.redact("export T=x; curl -u me:" + key + " https://x.test")).as(key)
                    .isEqualTo("export T=x; curl -u [redacted] https://x.test");
            assertThat(secrets.redactResult("the token is " + key + ".")).as(key).isEqualTo("the token is [redacted]");
        }
        assertThat(secrets.redactResult("pip install sk-learn-0.24.2-cp38.whl"))
                .isEqualTo("pip install sk-learn-0.24.2-cp38.whl");
    }

    @Test
    void a_known_secret_reversed_spaced_out_upper_cased_or_in_base64_is_redacted() {
        String key = "plainlettersonlykeyvalue";
        String listing = "HOME=/root\nZZCRED=" + key + "\nPATH=/usr/bin\n";
        String base64 = java.util.Base64.getMimeEncoder(76, "\n".getBytes()).encodeToString(listing.getBytes());

        assertThat(secrets.redactKnown(new StringBuilder(key).reverse() + "\n")).isEqualTo("[redacted]\n");
        assertThat(secrets.redactKnown(key.replaceAll(".", "$0 "))).isEqualTo("[redacted] ");
        assertThat(secrets.redactKnown("x" + key.toUpperCase(java.util.Locale.ROOT) + "x")).isEqualTo("x[redacted]x");
        for (String prefix : List.of("", "a", "ab")) {
            String encoded = java.util.Base64.getMimeEncoder(76, "\n".getBytes())
                    .encodeToString((prefix + listing).getBytes());
            String redacted = secrets.redactKnown(encoded);
            assertThat(redacted).as(prefix).contains("[redacted]");
            assertThat(new String(java.util.Base64.getMimeDecoder().decode(redacted.replace("[redacted]", "")),
                    java.nio.charset.StandardCharsets.ISO_8859_1)).as(prefix).doesNotContain("lettersonly");
        }
        assertThat(secrets.redactKnown(base64)).doesNotContain(SecretForms.base64Core(key, 1).substring(4, 12));
        assertThat(secrets.redactKnown("HOME=/root PATH=/usr/bin")).isEqualTo("HOME=/root PATH=/usr/bin");
    }

    @Test
    void a_reply_with_a_long_json_string_is_redacted_without_running_out_of_stack() {
        String huge = "{\"text\": \"" + "z\\n".repeat(200_000) + "\", \"token\": \"abc\"}";
        assertThat(secrets.redact(huge)).endsWith("\"token\": \"[redacted]\"}");
    }
}
