package dev.hmpagent.commands;

import dev.hmpagent.safety.ErrorCode;
import java.util.Objects;

/**
 * Asked by the executor before every command runs, outside any transaction. The human-set policy plugs in
 * here, and the SafetyMonitor next to it; gates are combined with {@link #and}.
 */
public interface CommandGate {
    /** Lets everything through. */
    CommandGate ALLOW_ALL = c -> Decision.allow();

    enum Verdict {
        /** Run it. */
        ALLOW,
        /** Do not run it: a failure fact with the decision's code (EPERM by default). */
        DENY,
        /** A person must approve it first; denied when nobody can answer. */
        ASK,
        /** Do not run it, and the SafetyMonitor locks the agent (a repeat it must not allow). */
        REFUSE
    }

    /** A verdict, the one line that explains it, and for a refusal its error code. */
    record Decision(Verdict verdict, String reason, String code) {
        public Decision {
            Objects.requireNonNull(verdict, "verdict");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(code, "code");
        }

        public static Decision allow() {
            return new Decision(Verdict.ALLOW, "", "");
        }

        public static Decision deny(String reason) {
            return new Decision(Verdict.DENY, reason, ErrorCode.EPERM);
        }

        public static Decision ask(String reason) {
            return new Decision(Verdict.ASK, reason, "");
        }
    }

    Decision check(PendingCommand command);

    /** A person answered "always" to a question this gate asked: let commands like this one through for the session. */
    default void allowForSession(PendingCommand command) { }

    /** This gate first; where it allows, {@code next} decides. */
    default CommandGate and(CommandGate next) {
        CommandGate first = this;
        return new CommandGate() {
            @Override
            public Decision check(PendingCommand command) {
                Decision d = first.check(command);
                if (d.verdict() == Verdict.DENY || d.verdict() == Verdict.REFUSE) return d;
                Decision n = next.check(command);
                if (n.verdict() != Verdict.ALLOW) return n;
                return d;
            }

            @Override
            public void allowForSession(PendingCommand command) {
                first.allowForSession(command);
                next.allowForSession(command);
            }
        };
    }
}
