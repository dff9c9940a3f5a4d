package dev.hmpagent.stagnation;

import java.time.Duration;
import java.util.Objects;

/**
 * How the anti-stagnation reflex is configured.
 *
 * @param signs             the signs of stagnation and their thresholds
 * @param enabled           fire strategies (false: only detect and record)
 * @param ratingTicks       LLM ticks within which novelty must rise for a +1
 * @param maxQuestions      questions to the person with no answer before the reflex stops asking and slows down
 * @param sleep             how long the sleep strategy idles, and the pause between thoughts once slowed down
 * @param taskSwitch        how long a task switch freezes the pinned task
 * @param configured        the configured generation parameters tuning returns to
 * @param configuredHistory the configured number of replies in context 1
 */
public record ReflexSettings(SignSettings signs, boolean enabled, int ratingTicks, int maxQuestions, Duration sleep,
                             Duration taskSwitch, Generation configured, int configuredHistory) {
    public ReflexSettings {
        Objects.requireNonNull(signs, "signs");
        Objects.requireNonNull(sleep, "sleep");
        Objects.requireNonNull(taskSwitch, "taskSwitch");
        Objects.requireNonNull(configured, "configured");
    }

    /** The generation parameters the reflex tunes, as configured. */
    public record Generation(double temperature, double presencePenalty, double frequencyPenalty) { }

    /** The sleep as the lines print it: whole seconds, minutes from two minutes on. */
    String sleepText() {
        long s = Math.max(1, (sleep.toMillis() + 999) / 1000);
        return s < 120 ? s + " s" : (s / 60) + " min";
    }
}
