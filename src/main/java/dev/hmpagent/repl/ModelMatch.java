package dev.hmpagent.repl;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Which configured entry {@code /model <name>} means: the entry with that id, else those with that name, else those
 * asking for that model (letter case aside). Among several, the configured LLM ({@code main}) wins: {@code /model
 * <the configured model's name>} returns to it.
 */
final class ModelMatch {
    static final String MAIN = "main";

    private ModelMatch() { }

    /** The entries {@code typed} names: one, several (ambiguous) or none. */
    static List<ModelChoice.Choice> of(String typed, List<ModelChoice.Choice> choices) {
        for (Function<ModelChoice.Choice, String> field : List.<Function<ModelChoice.Choice, String>>of(
                ModelChoice.Choice::id, ModelChoice.Choice::name, ModelChoice.Choice::model)) {
            List<ModelChoice.Choice> exact = choices.stream().filter(c -> field.apply(c).equals(typed)).toList();
            List<ModelChoice.Choice> found = !exact.isEmpty() ? exact : choices.stream()
                    .filter(c -> field.apply(c).toLowerCase(Locale.ROOT).equals(typed.toLowerCase(Locale.ROOT))).toList();
            if (found.size() > 1) {
                List<ModelChoice.Choice> main = found.stream().filter(c -> c.id().equals(MAIN)).toList();
                if (!main.isEmpty()) return main;
            }
            if (!found.isEmpty()) return found;
        }
        return List.of();
    }

    /** {@code main (gpt-4o-mini), spare (model-b)}. */
    static String list(List<ModelChoice.Choice> choices) {
        if (choices.isEmpty()) return "(none configured)";
        return choices.stream().map(c -> c.id() + " (" + c.model() + ")").collect(Collectors.joining(", "));
    }
}
