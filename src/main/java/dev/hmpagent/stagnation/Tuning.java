package dev.hmpagent.stagnation;

import dev.hmpagent.store.ReflexDao;
import java.util.Locale;
import java.util.Objects;

/** The reflex's generation knobs: temperature and penalties a step up each time, back to the configured ones after. */
final class Tuning {
    static final double TEMPERATURE_STEP = 0.2;
    static final double TEMPERATURE_CAP = 1.5;
    static final double PENALTY_STEP = 0.2;
    static final double PENALTY_CAP = 1.0;

    private final ReflexSettings.Generation configured;

    Tuning(ReflexSettings.Generation configured) {
        this.configured = Objects.requireNonNull(configured, "configured");
    }

    /** Whether a step up can still change something. */
    boolean applicable(ReflexDao.State state) {
        return configured.temperature() < TEMPERATURE_CAP
                && (temperature(state) < TEMPERATURE_CAP || presence(state) < PENALTY_CAP);
    }

    /** One step up, in {@code step}'s state; returns what was done. */
    String raise(Step step) {
        ReflexDao.State s = step.state;
        double t = raised(temperature(s), TEMPERATURE_STEP, TEMPERATURE_CAP);
        double p = raised(presence(s), PENALTY_STEP, PENALTY_CAP);
        double q = raised(frequency(s), PENALTY_STEP, PENALTY_CAP);
        step.state = s.withGeneration(t, p, q);
        return "temperature " + fmt(temperature(s)) + " → " + fmt(t) + ", presence penalty " + fmt(presence(s))
                + " → " + fmt(p) + ", frequency penalty " + fmt(frequency(s)) + " → " + fmt(q) + " until a novel reply";
    }

    /** After a novel reply: the configured parameters again, when they were tuned. */
    void restore(Step step) {
        if (!step.state.tuned()) return;
        step.lines.add("anti-stagnation reflex: a novel reply; generation parameters back to the configured ones"
                + " (temperature " + fmt(configured.temperature()) + ")");
        step.state = step.state.withGeneration(null, null, null);
    }

    private double temperature(ReflexDao.State s) {
        return s.temperature() == null ? configured.temperature() : s.temperature();
    }

    private double presence(ReflexDao.State s) {
        return s.presencePenalty() == null ? configured.presencePenalty() : s.presencePenalty();
    }

    private double frequency(ReflexDao.State s) {
        return s.frequencyPenalty() == null ? configured.frequencyPenalty() : s.frequencyPenalty();
    }

    /** {@code value + step}, at most {@code cap}, rounded to hundredths (0.7 + 0.2 is 0.9, not 0.8999999999999999). */
    private static double raised(double value, double step, double cap) {
        return Math.min(cap, Math.round((value + step) * 100) / 100.0);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
