package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FailureFactTest {
    @Test
    void the_same_failure_with_other_numbers_has_the_same_fingerprint() {
        FailureFact a = FailureFact.of("command", "memory_delete", "no memory entry with id 41", 0.5);
        FailureFact b = FailureFact.of("command", "memory_delete", "no memory entry with id 42", 0.5);
        assertThat(a.fingerprint()).isEqualTo(b.fingerprint()).hasSize(64).matches("[0-9a-f]{64}");
    }

    @Test
    void a_different_kind_or_source_has_another_fingerprint() {
        String base = FailureFact.of("command", "x", "boom", 0.5).fingerprint();
        assertThat(FailureFact.of("command", "y", "boom", 0.5).fingerprint()).isNotEqualTo(base);
        assertThat(FailureFact.of("llm", "x", "boom", 0.5).fingerprint()).isNotEqualTo(base);
    }

    @Test
    void pain_is_bounded() {
        assertThatThrownBy(() -> FailureFact.of("llm", "x", "y", 1.5)).isInstanceOf(IllegalArgumentException.class);
    }
}
