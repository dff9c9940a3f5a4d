package dev.hmpagent.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Each default is defined once (issue 36): the sections' constants, which code that builds a section by hand uses, are
 * what agent.toml's keys default to, and so what an agent started with no configuration runs with.
 */
class ConfigDefaultsTest {
    @Test
    void the_keys_default_to_the_sections_constants() {
        assertThat(ConfigKey.CYCLE_MAX_COMMANDS_PER_REPLY.defaultValue()).isEqualTo("100");
        AgentConfig defaults = AgentConfig.defaults();
        assertThat(defaults.cycle().maxCommandsPerReply()).isEqualTo(CycleSection.DEFAULT_MAX_COMMANDS_PER_REPLY);
        assertThat(defaults.cycle().maxIdle()).isEqualTo(CycleSection.DEFAULT_MAX_IDLE);
        assertThat(defaults.sandbox().maxFileBytes()).isEqualTo(SandboxSection.DEFAULT_MAX_FILE_BYTES);
        assertThat(defaults.sandbox().maxProcesses()).isEqualTo(SandboxSection.DEFAULT_MAX_PROCESSES);
        assertThat(defaults.sandbox().taskMaxBytes()).isEqualTo(SandboxSection.DEFAULT_TASK_MAX_BYTES);
        assertThat(defaults.sandbox().taskMaxFiles()).isEqualTo(SandboxSection.DEFAULT_TASK_MAX_FILES);
        assertThat(defaults.mcp().catalogueChars()).isEqualTo(McpSection.DEFAULT_CATALOGUE_CHARS);
        assertThat(defaults.llm().failoverAfter()).isEqualTo(LlmSection.DEFAULT_FAILOVER);
    }
}
