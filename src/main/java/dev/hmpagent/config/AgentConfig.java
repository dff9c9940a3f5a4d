package dev.hmpagent.config;

import java.util.Objects;

/**
 * The effective, validated configuration. Build it with {@link ConfigLoader#load(ConfigSources)};
 * {@link #defaults()} gives the built-in defaults from {@link ConfigKey}.
 */
public record AgentConfig(AgentSection agent, LlmSection llm, CycleSection cycle, ContextSection context,
                          RunSection run) {
    public AgentConfig {
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(llm, "llm");
        Objects.requireNonNull(cycle, "cycle");
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(run, "run");
    }

    /** Every key at its built-in default. */
    public static AgentConfig defaults() {
        return ConfigValues.defaults().toConfig();
    }
}
