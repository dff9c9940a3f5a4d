package dev.hmpagent.commands;

import java.util.function.BooleanSupplier;

/** Asks a person whether a command the gate was unsure of may run. Called outside any transaction. */
public interface Approver {
    enum Answer { YES, NO, ALWAYS }

    /** Nobody can answer (headless, pipe mode): every question is a no. */
    Approver NOBODY = new Approver() {
        @Override
        public Answer ask(PendingCommand command, String question, BooleanSupplier cancelled) {
            return Answer.NO;
        }

        @Override
        public boolean personPresent() {
            return false;
        }
    };

    /**
     * Blocks until the person answers or {@code cancelled} turns true (a halt), in which case the answer is NO.
     */
    Answer ask(PendingCommand command, String question, BooleanSupplier cancelled);

    /** Whether a person can answer at all. */
    boolean personPresent();
}
