package dev.hmpagent.cli;

import java.util.Map;

/**
 * Whether output is coloured, by the conventions people set once for every tool: {@code --no-color} and {@code
 * NO_COLOR} (https://no-color.org) turn it off, {@code CLICOLOR_FORCE} turns it on even when output is not a
 * terminal, and otherwise only a terminal gets colour.
 */
final class ColorChoice {
    private ColorChoice() { }

    /** @param terminal whether output goes to a terminal that can show styles (not a pipe, not TERM=dumb) */
    static boolean colour(Map<String, String> env, boolean noColorFlag, boolean terminal) {
        if (noColorFlag || set(env.get("NO_COLOR"))) return false;
        String force = env.get("CLICOLOR_FORCE");
        if (set(force) && !force.equals("0")) return true;
        return terminal;
    }

    private static boolean set(String value) {
        return value != null && !value.isEmpty();
    }
}
