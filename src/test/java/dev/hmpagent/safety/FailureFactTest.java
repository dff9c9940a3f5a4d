package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FailureFactTest {
    @Test
    void a_failure_that_is_not_a_command_is_fingerprinted_by_kind_and_message_with_numbers_folded() {
        FailureFact a = FailureFact.of("parse", "malformed_command", ErrorCode.EINVAL, "bad JSON at position 41");
        FailureFact b = FailureFact.of("parse", "malformed_command", ErrorCode.EINVAL, "Bad JSON at position  42");
        assertThat(a.fingerprint()).isEqualTo(b.fingerprint()).matches("[0-9a-f]{16}");
        assertThat(FailureFact.of("llm", "malformed_command", ErrorCode.EINVAL, "bad JSON at position 41").fingerprint())
                .isNotEqualTo(a.fingerprint());
        assertThat(FailureFact.of("parse", "other", ErrorCode.EINVAL, "bad JSON at position 41").fingerprint())
                .isNotEqualTo(a.fingerprint());
    }

    @Test
    void a_failed_command_keeps_the_fingerprint_of_the_command_whatever_its_message() {
        FailureFact f = FailureFact.command("memory_delete", "0123456789abcdef", ErrorCode.ENOENT, "no memory entry 4");
        assertThat(f.fingerprint()).isEqualTo("0123456789abcdef");
    }

    @Test
    void severity_follows_the_code_and_pain_follows_severity() {
        assertThat(FailureFact.command("shell", "f", ErrorCode.EPERM, "denied").severity()).isEqualTo(Severity.CRITICAL);
        assertThat(FailureFact.command("file_read", "f", ErrorCode.ENOENT, "missing").severity()).isEqualTo(Severity.MEDIUM);
        assertThat(FailureFact.command("shell", "f", ErrorCode.exit(2), "exit 2").severity()).isEqualTo(Severity.LOW);
        assertThat(Severity.CRITICAL.painLevel()).isGreaterThan(Severity.MEDIUM.painLevel())
                .isGreaterThan(Severity.LOW.painLevel());
        assertThat(FailureFact.command("shell", "f", ErrorCode.EPERM, "denied").painLevel()).isEqualTo(1.0);
    }
}
