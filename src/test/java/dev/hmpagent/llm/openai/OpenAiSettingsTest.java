package dev.hmpagent.llm.openai;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OpenAiSettingsTest {
    private static final Duration CONNECT = Duration.ofSeconds(5);
    private static final Duration READ = Duration.ofSeconds(30);

    @Test
    void the_call_deadline_defaults_to_300_seconds() {
        OpenAiSettings settings = new OpenAiSettings("http://localhost:11434/v1", "", "llama3", true, CONNECT, READ);

        assertThat(settings.callDeadline()).isEqualTo(Duration.ofSeconds(300)).isEqualTo(OpenAiSettings.DEFAULT_CALL_DEADLINE);
    }

    @Test
    void the_call_deadline_must_be_positive() {
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofSeconds(-1)}) {
            assertThatThrownBy(() -> new OpenAiSettings("http://x/v1", "", "m", true, CONNECT, READ, bad))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("callDeadline");
        }
        assertThatThrownBy(() -> new OpenAiSettings("http://x/v1", "", "m", true, CONNECT, READ, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("callDeadline");
    }

    @Test
    void to_string_shows_the_deadline_but_never_the_key() {
        OpenAiSettings settings = new OpenAiSettings("http://x/v1", "sk-secret", "m", true, CONNECT, READ,
                Duration.ofSeconds(90));

        assertThat(settings.toString()).contains("callDeadline=PT1M30S").doesNotContain("sk-secret");
    }
}
