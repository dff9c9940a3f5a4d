package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A secret location is a name; a secret pasted in its place is refused without being repeated. */
class SecretRefTest {

    @ParameterizedTest
    @ValueSource(strings = {"env:OPENAI_API_KEY", "env:AWS_REGION", "env:ASIA_PACIFIC_TOKEN", "env:npm_config_token",
            "env:_X", "keyring:hmp-agent/reddit-bot", "keyring:me@example.org", "keyring:service.v2/user_1"})
    void names_of_places_are_locations(String text) {
        SecretRef ref = SecretRef.parse(text);
        assertThat(ref.toString()).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"keyring:sk-proj-abcdEFGH12345678", "env:AKIAIOSFODNN7EXAMPLE", "env:ghp_a1B2c3D4e5F6g7H8i9J0",
            "keyring:eyJhbGciOiJIUzI1NiJ9abc123xyz", "keyring:xoxb-123456789012-abcdefghijkl",
            "keyring:a/3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c", "keyring:hf_aBcDeFgHiJkLmNoPqRsT1234"})
    void tokens_in_the_place_of_a_name_are_refused_without_repeating_them(String text) {
        assertThatThrownBy(() -> SecretRef.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("looks like a secret").hasMessageNotContaining(text.substring(text.indexOf(':') + 1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"hunter2", "env:", "env:1X", "env:A-B", "env:A B", "keyring:", "keyring:a b", "vault:x",
            "ENV:X", "env:X=1"})
    void anything_else_is_not_a_location(String text) {
        assertThatThrownBy(() -> SecretRef.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("env:VARIABLE_NAME or keyring:entry").hasMessageNotContaining("hunter2");
    }

    @org.junit.jupiter.api.Test
    void the_shortest_keys_of_each_form_are_keys_and_the_length_below_which_none_is_holds() {
        assertThat(SecretRef.looksLikeKey("sk-abcdefghij1k")).as("a 3-character prefix and 12 more: 15").isTrue();
        assertThat(SecretRef.looksLikeKey("eyJabcdefghij1k")).isTrue();
        assertThat(SecretRef.looksLikeKey("-----BEGIN")).as("the start of a key block: 10").isTrue();
        assertThat(SecretRef.looksLikeKey("AKIAABCDEFGH12345678")).isTrue();
        assertThat(SecretRef.looksLikeKey(" -----BEGIN ")).as("judged stripped").isTrue();
        assertThat(SecretRef.MIN_KEY_LENGTH).isEqualTo("-----BEGIN".length());
    }

    @org.junit.jupiter.api.Test
    void keys_and_token_runs_are_found_anywhere_in_a_long_text_and_words_like_them_are_not_keys() {
        // many "sk-" words: the old judge copied the rest of the text for each one (quadratic: over a minute for
        // 4 Mi characters); the result must be what it was
        String filler = " sk-word1 sk-learn-0.24.whl a1b2 ".repeat(20_000);
        assertThat(SecretRef.looksLikeKey(filler)).isFalse();
        assertThat(SecretRef.looksLikeSecret(filler)).isFalse();
        assertThat(SecretRef.looksLikeKey(filler + "sk-proj-abcdEFGH12345678")).as("at the very end").isTrue();
        assertThat(SecretRef.looksLikeKey(filler + "sk-proj-abcdEFGH12345678." + filler)).as("before a full stop")
                .isTrue();
        assertThat(SecretRef.looksLikeKey("x sk-abcdefghijklmnop y")).as("no digit in the tail").isFalse();
        assertThat(SecretRef.looksLikeKey("x-sk-abcdefgh12345678")).as("not where a word begins").isFalse();
        assertThat(SecretRef.looksLikeSecret(filler + "3f9a8b7c6d5e4f3a2b1c")).as("a run of 20 at the end").isTrue();
        assertThat(SecretRef.looksLikeSecret(filler + "3f9a8b7c6d5e4f3a2b1")).as("19 is no run").isFalse();
        assertThat(SecretRef.looksLikeSecret("abcdefghijklmnopqrstuvwxyz")).as("letters only").isFalse();
        assertThat(SecretRef.looksLikeSecret("12345678901234567890123")).as("digits only").isFalse();
        assertThat(SecretRef.looksLikeSecret("a/3f9a8b7c6d5e4f3a2b1c0d9e@x")).isTrue();
    }
}
