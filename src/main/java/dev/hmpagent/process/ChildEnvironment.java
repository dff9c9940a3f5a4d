package dev.hmpagent.process;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * What of the agent's environment a child process (a command, a script, the alert command, an MCP server) may see:
 * an allow-list. The basics a shell needs ({@link #BASICS}, {@code LC_*}) and the variables a person names in
 * {@code shell.env}; never a variable that names a key ({@code *api_key_env} and the like), never one whose value is
 * or holds a configured secret, whoever named it. Everything else of the agent's environment stays the agent's.
 */
public final class ChildEnvironment {
    /** The variables every child gets when the agent has them. */
    public static final List<String> BASICS =
            List.of("PATH", "HOME", "LANG", "LANGUAGE", "TERM", "TZ", "USER", "LOGNAME", "SHELL", "TMPDIR");
    private static final List<String> SECRET_PARTS =
            List.of("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL");
    /** A secret shorter than this is compared whole with a value, never searched for inside one. */
    private static final int MIN_SEARCHED = 8;

    private final Map<String, String> variables;
    private final List<String> refused;

    private ChildEnvironment(Map<String, String> variables, List<String> refused) {
        this.variables = Map.copyOf(variables);
        this.refused = List.copyOf(refused);
    }

    /**
     * The allow-listed environment.
     *
     * @param agent        the agent's own environment
     * @param named        what the person passes on besides the basics ({@code shell.env})
     * @param keyVariables the variables that hold keys (never passed)
     * @param secrets      the values of every configured secret (a variable holding one is never passed)
     */
    public static ChildEnvironment of(Map<String, String> agent, List<String> named, Set<String> keyVariables,
                                      Collection<String> secrets) {
        Objects.requireNonNull(agent, "agent");
        List<String> knownValues = secrets.stream().filter(s -> s != null && !s.isBlank()).toList();
        Map<String, String> kept = new TreeMap<>();
        List<String> refused = new ArrayList<>();
        agent.forEach((name, value) -> {
            boolean asked = named.contains(name);
            if (!asked && !basic(name)) return;
            if (keyVariables.contains(name) || holdsSecret(value, knownValues) || (!asked && isSecret(name))) {
                if (asked) refused.add(name);
                return;
            }
            kept.put(name, value);
        });
        refused.sort(null);
        return new ChildEnvironment(kept, refused);
    }

    /** Only the basics of {@code agent}, none with a secret-looking name: for a runner no configuration stands behind. */
    public static ChildEnvironment basics(Map<String, String> agent) {
        return of(agent, List.of(), Set.of(), List.of());
    }

    /** The variables a child gets. */
    public Map<String, String> variables() {
        return variables;
    }

    /** The variables {@code shell.env} names that are not passed on, because they hold a key; sorted. */
    public List<String> refused() {
        return refused;
    }

    /** One line for a person when {@code shell.env} names a variable that is not passed on; "" when none. */
    public String refusedLine() {
        if (refused.isEmpty()) return "";
        return "shell.env names " + String.join(", ", refused) + ", which " + (refused.size() == 1 ? "holds" : "hold")
                + " a configured key: not passed to any child process (remove it from shell.env)";
    }

    /** True for a name that, in any case, says it holds a secret ({@code MY_TOKEN}, {@code db_password}). */
    public static boolean isSecret(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        return SECRET_PARTS.stream().anyMatch(upper::contains);
    }

    private static boolean basic(String name) {
        return BASICS.contains(name) || name.startsWith("LC_");
    }

    private static boolean holdsSecret(String value, List<String> secrets) {
        for (String s : secrets) {
            if (value.equals(s) || (s.length() >= MIN_SEARCHED && value.contains(s))) return true;
        }
        return false;
    }
}
