package dev.hmpagent.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.commands.catalogue.Catalogue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** No command the LLM can run touches safety: such types cannot be registered, and the executor can tell them. */
class ReservedCommandTypesTest {

    @ParameterizedTest
    @ValueSource(strings = {"unlock", "halt", "HALT", " Unlock ", "budget_raise", "add_budget", "policy_set",
            "shell_policy", "safety_off", "SafetyMonitor", "guide_edit", "lock", "unlock_now", "lockout_clear"})
    void a_type_touching_safety_is_reserved_and_cannot_be_registered(String type) {
        assertThat(CommandRegistry.isReserved(type)).isTrue();
        assertThatThrownBy(() -> new CommandRegistry().register(new SimpleCommand(type, "s", "{}",
                (a, c) -> CommandOutcome.ok("ran"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
    }

    @ParameterizedTest
    @ValueSource(strings = {"help", "send_message", "table_create", "llm_select", "peer_message", "halting_problem_note"})
    void ordinary_types_are_not_reserved(String type) {
        assertThat(CommandRegistry.isReserved(type)).isFalse();
    }

    @Test
    void no_built_in_command_is_reserved() {
        assertThat(Catalogue.builtIn().types()).noneMatch(CommandRegistry::isReserved);
    }
}
