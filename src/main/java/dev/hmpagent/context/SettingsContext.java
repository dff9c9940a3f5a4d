package dev.hmpagent.context;

import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/** Context 5: the tick, the time, the settings in force (and which of them the LLM set) and the LLM thinking now. */
final class SettingsContext {
    static final int INDEX = 5;
    /** What precedes the LLM's name in context 5. */
    static final String MODEL_LABEL = "; model ";

    /** The LLM thinking now ("model at endpoint"): it follows a switch (/model, the reflex's switch LLM). */
    private final Supplier<String> llmDescription;

    SettingsContext(Supplier<String> llmDescription) {
        this.llmDescription = Objects.requireNonNull(llmDescription, "llmDescription");
    }

    Section render(long tickId, Instant now, LiveSettings.Snapshot snapshot) {
        ContextSettings settings = snapshot.settings();
        Map<String, Long> setAt = snapshot.setByLlmAtTick();
        String notesMode = settings.manualNotes() ? "manual" : "auto (filter: " + settings.autoFilter().describe() + ")";
        String line = "tick " + tickId + "; time " + now + "; notes mode " + notesMode
                + byYou(setAt, ContextKeys.NOTES_MODE, ContextKeys.NOTES_FILTER) + "; history " + settings.historyK()
                + " replies" + byYou(setAt, ContextKeys.HISTORY_K) + "; autonomous thinking "
                + (settings.autonomous() ? "on" : "off") + MODEL_LABEL + llmDescription.get();
        if (!snapshot.problems().isEmpty()) {
            line += "\nsettings you stored that do not apply as stored: " + String.join("; ", snapshot.problems());
        }
        return new Section(INDEX, "settings", "", true, 0).add(line, 0);
    }

    /** " (set by you at tick N)" for the latest of {@code keys} the LLM set, else "". */
    private static String byYou(Map<String, Long> setAt, String... keys) {
        long tick = Arrays.stream(keys).filter(setAt::containsKey).mapToLong(setAt::get).max().orElse(-1);
        return tick < 0 ? "" : " (set by you at tick " + tick + ")";
    }
}
