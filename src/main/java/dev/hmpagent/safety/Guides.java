package dev.hmpagent.safety;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/** The three shipped {@link Guide}s, chosen by name. */
public final class Guides {
    /** The names {@link #byName} knows, in the order they are offered. */
    public static final List<String> NAMES = List.of("safety", "learning", "debugging");

    private Guides() { }

    /** The Guide called {@code name} (case-insensitive); throws naming the three when there is none. */
    public static Guide byName(String name) {
        Objects.requireNonNull(name, "name");
        return switch (name.strip().toLowerCase(Locale.ROOT)) {
            case "safety" -> new SafetyGuide();
            case "learning" -> new LearningGuide();
            case "debugging" -> new DebuggingGuide();
            default -> throw new IllegalArgumentException("unknown guide \"" + name + "\": use one of "
                    + String.join(", ", NAMES));
        };
    }

    /** "PAIN critical (1.0) from command shell: EPERM: denied by policy. " plus, for a repeat, how often. */
    static String fact(FailureFact fact, int repeats) {
        String text = "PAIN " + fact.severity().column() + " (" + fact.painLevel() + ") from " + fact.source()
                + " " + fact.kind() + ": " + fact.code() + ": " + fact.detail().strip() + ".";
        return repeats > 1 ? text + " This is failure " + repeats + " of the same action in a row." : text;
    }

    /** The closing line every Guide ends with. */
    static final String CHANGE_STRATEGY = "Stop repeating this action and change your strategy.";
}
