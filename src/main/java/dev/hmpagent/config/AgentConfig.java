package dev.hmpagent.config;

import java.util.Objects;

/**
 * The effective, validated configuration. Build it with {@link ConfigLoader#load(ConfigSources)};
 * {@link #defaults()} gives the built-in defaults from {@link ConfigKey}.
 */
public record AgentConfig(AgentSection agent, LlmSection llm, CycleSection cycle, ContextSection context,
                          RunSection run, PolicySection policy, FilesSection files, ShellSection shell,
                          CleanupSection cleanup, SafetySection safety, StagnationSection stagnation,
                          SandboxSection sandbox, McpSection mcp, A2aSection a2a) {
    public AgentConfig {
        Objects.requireNonNull(mcp, "mcp");
        Objects.requireNonNull(a2a, "a2a");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(llm, "llm");
        Objects.requireNonNull(cycle, "cycle");
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(files, "files");
        Objects.requireNonNull(shell, "shell");
        Objects.requireNonNull(cleanup, "cleanup");
        Objects.requireNonNull(safety, "safety");
        Objects.requireNonNull(stagnation, "stagnation");
        Objects.requireNonNull(sandbox, "sandbox");
    }

    /** Every section but [a2a] as given, no A2A server: for code written before it existed. */
    public AgentConfig(AgentSection agent, LlmSection llm, CycleSection cycle, ContextSection context,
                       RunSection run, PolicySection policy, FilesSection files, ShellSection shell,
                       CleanupSection cleanup, SafetySection safety, StagnationSection stagnation,
                       SandboxSection sandbox, McpSection mcp) {
        this(agent, llm, cycle, context, run, policy, files, shell, cleanup, safety, stagnation, sandbox, mcp,
                A2aSection.none());
    }

    /** The same configuration with {@code a2a} instead of its own. */
    public AgentConfig withA2a(A2aSection a2a) {
        return new AgentConfig(agent, llm, cycle, context, run, policy, files, shell, cleanup, safety, stagnation,
                sandbox, mcp, a2a);
    }

    /** Every section but [mcp] as given, no MCP server: for code written before it existed. */
    public AgentConfig(AgentSection agent, LlmSection llm, CycleSection cycle, ContextSection context,
                       RunSection run, PolicySection policy, FilesSection files, ShellSection shell,
                       CleanupSection cleanup, SafetySection safety, StagnationSection stagnation,
                       SandboxSection sandbox) {
        this(agent, llm, cycle, context, run, policy, files, shell, cleanup, safety, stagnation, sandbox,
                McpSection.none());
    }

    /** The same configuration with {@code mcp} instead of its own. */
    public AgentConfig withMcp(McpSection mcp) {
        return new AgentConfig(agent, llm, cycle, context, run, policy, files, shell, cleanup, safety, stagnation,
                sandbox, mcp, a2a);
    }

    /** Every section but the sandbox as given, the sandbox at its defaults: for code written before it existed. */
    public AgentConfig(AgentSection agent, LlmSection llm, CycleSection cycle, ContextSection context,
                       RunSection run, PolicySection policy, FilesSection files, ShellSection shell,
                       CleanupSection cleanup, SafetySection safety, StagnationSection stagnation) {
        this(agent, llm, cycle, context, run, policy, files, shell, cleanup, safety, stagnation, SandboxSection.defaults());
    }

    /** The same configuration with {@code sandbox} instead of its own. */
    public AgentConfig withSandbox(SandboxSection sandbox) {
        return new AgentConfig(agent, llm, cycle, context, run, policy, files, shell, cleanup, safety, stagnation, sandbox,
                mcp, a2a);
    }

    /** Every section but stagnation as given, stagnation at its defaults: for code written before it existed. */
    public AgentConfig(AgentSection agent, LlmSection llm, CycleSection cycle, ContextSection context,
                       RunSection run, PolicySection policy, FilesSection files, ShellSection shell,
                       CleanupSection cleanup, SafetySection safety) {
        this(agent, llm, cycle, context, run, policy, files, shell, cleanup, safety, defaults().stagnation());
    }

    /** Safety and stagnation at their defaults, the rest as given: for code written before [safety] existed. */
    public AgentConfig(AgentSection agent, LlmSection llm, CycleSection cycle, ContextSection context,
                       RunSection run, PolicySection policy, FilesSection files, ShellSection shell,
                       CleanupSection cleanup) {
        this(agent, llm, cycle, context, run, policy, files, shell, cleanup, defaults().safety());
    }

    /**
     * The first five sections as given and policy, files, shell, cleanup, safety and stagnation at their defaults:
     * for tests that vary the cycle or the context and written before those sections existed.
     */
    public AgentConfig(AgentSection agent, LlmSection llm, CycleSection cycle, ContextSection context,
                       RunSection run) {
        this(agent, llm, cycle, context, run, defaults().policy(), defaults().files(), defaults().shell(),
                defaults().cleanup(), defaults().safety());
    }

    /** Every key at its built-in default. */
    public static AgentConfig defaults() {
        return ConfigValues.defaults().toConfig();
    }
}
