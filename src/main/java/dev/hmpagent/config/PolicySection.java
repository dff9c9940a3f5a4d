package dev.hmpagent.config;

import java.util.List;
import java.util.Objects;

/**
 * The [policy] section: which shell commands the LLM may run. Each rule is a command prefix compared
 * word by word; deny is checked first, then ask, then allow. Set by a person only (agent.toml, env,
 * flags); nothing the LLM writes reaches it.
 */
public record PolicySection(List<String> shellDeny, List<String> shellAsk, List<String> shellAllow) {
    public PolicySection {
        shellDeny = List.copyOf(Objects.requireNonNull(shellDeny, "shellDeny"));
        shellAsk = List.copyOf(Objects.requireNonNull(shellAsk, "shellAsk"));
        shellAllow = List.copyOf(Objects.requireNonNull(shellAllow, "shellAllow"));
    }
}
