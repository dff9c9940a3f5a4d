package dev.hmpagent.llm.anthropic;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AnthropicSettingsTest {
    private static final Duration CONNECT = Duration.ofSeconds(5);
    private static final Duration READ = Duration.ofSeconds(30);

    @Test
    void no_base_url_means_anthropics_own_api_and_the_deadline_defaults_to_300_seconds() {
        for (String none : new String[] {null, "", "  "}) {
            AnthropicSettings settings = new AnthropicSettings(none, "k", "claude-x", true, CONNECT, READ);
            assertThat(settings.baseUrl()).isEqualTo("https://api.anthropic.com").isEqualTo(AnthropicSettings.DEFAULT_BASE_URL);
            assertThat(settings.callDeadline()).isEqualTo(Duration.ofSeconds(300));
        }
    }

    @Test
    void a_blank_model_bad_timeouts_and_a_non_positive_deadline_are_refused_by_name() {
        assertThatThrownBy(() -> new AnthropicSettings(null, "", " ", true, CONNECT, READ))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("model");
        assertThatThrownBy(() -> new AnthropicSettings(null, "", "m", true, Duration.ofSeconds(-1), READ))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeouts");
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofSeconds(-1)}) {
            assertThatThrownBy(() -> new AnthropicSettings(null, "", "m", true, CONNECT, READ, bad))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("callDeadline");
        }
        assertThatThrownBy(() -> new AnthropicSettings(null, "", "m", true, CONNECT, READ, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("callDeadline");
    }

    @Test
    void the_key_is_stripped_and_never_shown() {
        AnthropicSettings settings = new AnthropicSettings(null, " sk-ant-secret \n", "m", true, CONNECT, READ);

        assertThat(settings.apiKey()).isEqualTo("sk-ant-secret");
        assertThat(settings.toString()).contains("apiKey=***", "model=m").doesNotContain("sk-ant-secret");
        assertThat(new AnthropicSettings(null, null, "m", true, CONNECT, READ).apiKey()).isEmpty();
    }
}
