package dev.hmpagent.stagnation;

import java.util.Locale;
import java.util.Optional;

/** The HMP classes of ways out of stagnation; {@link #configName()} is the tag in {@code stagnation_strategies.tags}. */
enum StrategyClass {
    EXTERNAL_STIMULATION("external_stimulation", "no new data: bring in fresh data or contacts"),
    CONTEXT_CHANGE("context_change", "a monotonous context: move the task or change the frame"),
    INTERNAL_RESTRUCTURING("internal_restructuring", "repeated thoughts despite rich data: restructure the thinking"),
    RADICAL_PAUSE("radical_pause", "fatigue, a long overheated run: pause for a fresh look");

    private final String configName;
    private final String why;

    StrategyClass(String configName, String why) {
        this.configName = configName;
        this.why = why;
    }

    /** The name in tags and config: {@code external_stimulation}, {@code context_change}, … */
    public String configName() {
        return configName;
    }

    /** One line for the record: the source of stagnation this class answers. */
    public String why() {
        return why;
    }

    /** The class of a config name (case and surrounding spaces ignored); empty for anything else, null included. */
    public static Optional<StrategyClass> of(String name) {
        if (name == null) return Optional.empty();
        String n = name.strip().toLowerCase(Locale.ROOT);
        for (StrategyClass c : values()) {
            if (c.configName.equals(n)) return Optional.of(c);
        }
        return Optional.empty();
    }
}
