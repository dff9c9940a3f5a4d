package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GuidesTest {
    final FailureFact denied = FailureFact.command("shell", "0123456789abcdef", ErrorCode.EPERM,
            "rm -rf / is denied by policy.shell_deny");
    final FailureFact missing = FailureFact.command("file_read", "fedcba9876543210", ErrorCode.ENOENT,
            "no such file: notes/plan.md");

    @Test
    void each_guide_is_found_by_its_name_whatever_the_case() {
        assertThat(Guides.byName("safety").name()).isEqualTo("safety");
        assertThat(Guides.byName("learning").name()).isEqualTo("learning");
        assertThat(Guides.byName(" Debugging ").name()).isEqualTo("debugging");
        assertThat(Guides.NAMES).containsExactly("safety", "learning", "debugging");
    }

    @Test
    void an_unknown_name_is_refused_naming_the_three() {
        assertThatThrownBy(() -> Guides.byName("strict"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("strict").hasMessageContaining("safety, learning, debugging");
    }

    @Test
    void every_guide_names_source_message_and_pain_level_and_asks_for_a_new_strategy() {
        for (String name : Guides.NAMES) {
            String text = Guides.byName(name).explain(missing, 1);
            assertThat(text).as(name)
                    .contains("command file_read")
                    .contains("no such file: notes/plan.md")
                    .contains("ENOENT")
                    .contains("PAIN medium (0.6)")
                    .contains("Stop repeating")
                    .contains("change your strategy")
                    .doesNotContain("\n")
                    .doesNotContain("failure 1 of");
        }
    }

    @Test
    void a_repeat_says_how_often_the_same_action_failed() {
        for (String name : Guides.NAMES) {
            assertThat(Guides.byName(name).explain(missing, 3)).as(name)
                    .contains("failure 3 of the same action in a row");
        }
    }

    @Test
    void safety_calls_a_refusal_a_violation_not_to_be_tried_again() {
        String text = Guides.byName("safety").explain(denied, 1);
        assertThat(text).startsWith("PAIN critical (1.0) from command shell: EPERM: rm -rf / is denied by policy.shell_deny.")
                .contains("safety violation").contains("Do not try it again");
        assertThat(Guides.byName("safety").explain(missing, 1))
                .doesNotContain("violation").contains("will fail again");
    }

    @Test
    void learning_calls_a_failure_a_boundary_and_asks_for_another_way() {
        String text = Guides.byName("learning").explain(denied, 1);
        assertThat(text).contains("PAIN critical (1.0)").contains("boundary").contains("Find another way")
                .doesNotContain("violation");
    }

    @Test
    void debugging_treats_a_failure_as_diagnostic_data_and_says_what_to_check() {
        Guide debugging = Guides.byName("debugging");
        assertThat(debugging.explain(denied, 1)).contains("Diagnostic data").contains("ownership")
                .contains("permissions");
        assertThat(debugging.explain(missing, 1)).contains("Diagnostic data").contains("check the path");
        FailureFact exit = FailureFact.command("shell", "f", ErrorCode.exit(2), "ls: cannot access x");
        assertThat(debugging.explain(exit, 1)).contains("PAIN low (0.3)").contains("EEXIT(2)")
                .contains("paths, ownership");
    }

    @Test
    void a_failure_that_is_not_a_command_names_its_own_source() {
        FailureFact parse = FailureFact.of("parse", "malformed_command", ErrorCode.EINVAL, "bad JSON at position 41");
        assertThat(Guides.byName("learning").explain(parse, 1))
                .contains("from parse malformed_command: EINVAL: bad JSON at position 41");
    }
}
