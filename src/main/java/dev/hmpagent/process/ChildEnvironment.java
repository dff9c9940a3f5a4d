package dev.hmpagent.process;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Which variables of the agent's environment a child process may see: none that looks like a secret. */
final class ChildEnvironment {
    private static final List<String> SECRET_PARTS =
            List.of("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL");
    private static final Set<String> SECRET_NAMES =
            Set.of("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AGENT_LLM_API_KEY");

    private ChildEnvironment() {}

    /** The base environment without every variable whose name (any case) contains a secret-looking part. */
    static Map<String, String> scrub(Map<String, String> base) {
        Map<String, String> kept = new TreeMap<>();
        base.forEach((name, value) -> {
            if (!isSecret(name)) {
                kept.put(name, value);
            }
        });
        return Map.copyOf(kept);
    }

    static boolean isSecret(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        return SECRET_NAMES.contains(upper) || SECRET_PARTS.stream().anyMatch(upper::contains);
    }
}
