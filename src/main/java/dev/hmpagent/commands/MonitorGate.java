package dev.hmpagent.commands;

import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.safety.SafetyMonitor;
import java.util.Objects;
import java.util.Optional;

/**
 * The SafetyMonitor's verdict before a command runs: allow, or refuse and lock (the 5th identical failure is
 * refused before it runs). Asked after the policy, so a command the policy denies never reaches it.
 */
public final class MonitorGate implements CommandGate {
    private final SafetyMonitor monitor;

    public MonitorGate(SafetyMonitor monitor) {
        this.monitor = Objects.requireNonNull(monitor, "monitor");
    }

    @Override
    public Decision check(PendingCommand command) {
        Optional<String> refused = monitor.refuseBeforeCommand(command.processLogId(), command.fingerprint());
        return refused.map(r -> new Decision(Verdict.REFUSE, r, ErrorCode.EPERM)).orElse(Decision.allow());
    }
}
