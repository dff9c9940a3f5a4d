package dev.hmpagent.policy;

import java.util.List;
import java.util.Objects;

/**
 * The human-set shell rules ({@code policy.shell_deny}, {@code shell_ask}, {@code shell_allow} in
 * agent.toml): command prefixes compared word by word; {@code "*"} (or "") matches every command.
 */
public record ShellRules(List<String> deny, List<String> ask, List<String> allow) {
    public ShellRules {
        deny = List.copyOf(Objects.requireNonNull(deny, "deny"));
        ask = List.copyOf(Objects.requireNonNull(ask, "ask"));
        allow = List.copyOf(Objects.requireNonNull(allow, "allow"));
    }
}
