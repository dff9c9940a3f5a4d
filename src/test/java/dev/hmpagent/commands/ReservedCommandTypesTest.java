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

    @ParameterizedTest
    @ValueSource(strings = {"mcp.x.unlock", "mcp.x.lock_agent", "mcp.x.set_budget", "mcp.x.policy_edit",
            "mcp.x.safety_reset", "mcp.x.guide_set", "mcp.x.setBudget", "mcp.x.SafetyMonitor", "mcp.x.lockout_clear",
            "mcp.x.unlock-now", "mcp.x.Policies", "mcp.x.lock2", "mcp.locks.list", "mcp.x.HTTPLock", "mcp.x.get_guides",
            "mcp.x.budgets", "mcp.x.unlocked_files", "x.safety.off"})
    void a_namespaced_tool_with_a_word_of_our_safety_is_reserved(String type) {
        assertThat(CommandRegistry.isReserved(type)).isTrue();
        assertThat(CommandRegistry.reservedWord(type)).isPresent();
    }

    /**
     * A tool another party named is judged by its words: "block" is not "lock", nor "clock", nor "guidelines" a guide
     * (blocklist is one word, block + list, and still not lock).
     */
    @ParameterizedTest
    @ValueSource(strings = {"mcp.github.create_block", "mcp.x.clock_time", "mcp.db.get_guidelines",
            "mcp.x.blocklist_add", "mcp.x.getGuidelines", "mcp.time.clockNow", "mcp.x.deadlock_check",
            "mcp.npm.read_lockfile", "mcp.blocks.list", "mcp.x.safe_mode", "mcp.peer.halting"})
    void a_namespaced_tool_whose_words_only_contain_ours_is_not_reserved(String type) {
        assertThat(CommandRegistry.isReserved(type)).isFalse();
        assertThat(CommandRegistry.reservedWord(type)).isEmpty();
    }

    @Test
    void the_reserved_word_named_is_the_first_of_the_type() {
        assertThat(CommandRegistry.reservedWord("mcp.x.getSafetyBudget")).hasValue("safety");
        assertThat(CommandRegistry.reservedWord("mcp.x.lockout_clear")).hasValue("lockout");
    }

    /** Our own flat namespace keeps the substring rule, and a handler of ours may not even be named so with a dot. */
    @ParameterizedTest
    @ValueSource(strings = {"create_block", "setbudget", "clockwork", "getguidelines", "mcp.x.create_block",
            "notes.blocklist"})
    void our_own_types_keep_the_substring_rule(String type) {
        assertThat(CommandRegistry.isReserved(type)).as("refused by the gate").isEqualTo(!type.contains("."));
        assertThatThrownBy(() -> new CommandRegistry().register(new SimpleCommand(type, "s", "{}",
                (a, c) -> CommandOutcome.ok("ran"))))
                .as("never registered").isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
    }

    @Test
    void no_built_in_command_is_reserved() {
        assertThat(Catalogue.builtIn().types()).noneMatch(CommandRegistry::isReserved);
    }
}
