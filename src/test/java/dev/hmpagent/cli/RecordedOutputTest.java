package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.safety.FailureFact;
import dev.hmpagent.safety.Guides;
import dev.hmpagent.safety.SafetyRules;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** What a command returned, read back from what the LLM was shown: the monitor's words taken off, on plain strings. */
class RecordedOutputTest {
    @ParameterizedTest
    @ValueSource(strings = {"safety", "learning", "debugging"})
    void a_failure_explained_by_any_guide_gives_back_its_message_whatever_the_repeat_count(String guide) {
        String message = "exit 1 after 0.2 s\nsettings.cfg: No such file or directory.\n";
        FailureFact fact = FailureFact.command("shell", "abc", "EEXIT(1)", message);
        for (int repeats : new int[] {1, 2, 12}) {
            String shown = Guides.byName(guide).explain(fact, repeats);

            assertThat(RecordedOutput.of("shell", true, "EEXIT(1)", shown))
                    .isEqualTo(new RecordedOutput(message.strip(), false));
        }
    }

    @Test
    void an_alert_before_and_a_stop_after_the_result_are_taken_off() {
        String shown = SafetyRules.REPEAT_ALERT + "\n" + Guides.byName("safety").explain(
                FailureFact.command("file_read", "abc", "ENOENT", "no such file: settings.cfg"), 3)
                + "\n[the agent is locked: the same command failed 4 times in a row; a person must run agent unlock]";

        assertThat(RecordedOutput.of("file_read", true, "ENOENT", shown))
                .isEqualTo(new RecordedOutput("no such file: settings.cfg", false));
        assertThat(RecordedOutput.of("file_read", false, null, "SYSTEM ALERT: This command returned the same result 3"
                + " times.\nhost = example.org\n[the agent is paused: thrashing; a person must run agent unlock]"))
                .isEqualTo(new RecordedOutput("host = example.org", false));
    }

    @Test
    void an_einval_failure_no_guide_explained_was_the_models_argument_slip() {
        String shown = "file_read: \"path\" is missing\nA correct example: {\"type\": \"file_read\", ...}";

        assertThat(RecordedOutput.of("file_read", true, "EINVAL", shown)).isEqualTo(new RecordedOutput(shown, true));
        assertThat(RecordedOutput.of("shell", true, "EHALT", "not run: halted")).isEqualTo(
                new RecordedOutput("not run: halted", false));
    }
}
