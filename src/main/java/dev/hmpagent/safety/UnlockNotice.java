package dev.hmpagent.safety;

import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Requester;
import java.time.Instant;
import java.util.Optional;

/**
 * After a person releases a breaker's stop (a lockout, an error pause), the LLM must not walk straight back into the
 * loop that stopped it: the first prompt after the unlock says what was stopped, why (the command that kept failing
 * and its error, as the stop's reason names them) and the person's reason. It comes as a note from {@code system},
 * written in the unlock's transaction: shown once, in context 4, and read after the reply that saw it.
 */
final class UnlockNotice {
    /** The source of the note. */
    static final String SOURCE = "system";

    private UnlockNotice() { }

    /** Inside the unlock's transaction: the note, when {@code before} was a breaker's stop. */
    static void add(NotesDao notes, SafetyStatus before, String reason, Requester who, Instant at) {
        text(before, reason, who, at).ifPresent(text -> notes.add(text, SOURCE, 1, "unlock"));
    }

    /** What the LLM is told, or empty for a stop that is no breaker's (a halt, a budget, a quota). */
    static Optional<String> text(SafetyStatus before, String reason, Requester who, Instant at) {
        if (before.state() != SafetyState.SAFETY_LOCKOUT && before.state() != SafetyState.ERROR_PAUSED) {
            return Optional.empty();
        }
        String why = reason == null || reason.isBlank() ? "(no reason given)" : "\"" + reason.strip() + "\"";
        String stopped = before.state() == SafetyState.SAFETY_LOCKOUT ? "locked" : "paused";
        return Optional.of("A person (" + who.user() + ") unlocked you at " + at + " with the reason: " + why
                + ". You had been " + stopped + " (" + before.label() + " since " + before.since() + "): "
                + before.detail() + ". Do not take up the action that stopped you again as it was: read the reason,"
                + " change your approach, and ask the person if you are unsure.");
    }
}
