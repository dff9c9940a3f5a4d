package dev.hmpagent.policy;

import java.util.regex.Pattern;

/**
 * One shell word after quote removal.
 *
 * @param text          the word as the command would see it; an expansion stays as written ({@code $HOME})
 * @param regex         a regular expression for its possible values (globs and expansions as wildcards)
 * @param valueRegex    the same for the part after its first {@code =} ({@code --db=$X}, {@code X=$Y}); "" without one
 * @param dynamic       true when its value is only known when the shell runs (a glob or an expansion)
 * @param quoted        true when any part of it was quoted or escaped (then it is no keyword)
 * @param literalPrefix how many leading characters of {@code text} were plain unquoted characters
 * @param expands       true when it holds a parameter or command substitution ({@code $X}, {@code $(…)},
 *                      backticks, {@code <(…)}), whose value no reading of the text can know (a glob alone is not)
 */
record Word(String text, String regex, String valueRegex, boolean dynamic, boolean quoted, int literalPrefix,
            boolean expands) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** A word built from a known string, e.g. a {@code for} header turned into assignments. */
    static Word literal(String text) {
        int eq = text.indexOf('=');
        return new Word(text, Pattern.quote(text), eq < 0 ? "" : Pattern.quote(text.substring(eq + 1)), false, false,
                text.length(), false);
    }

    /** {@code NAME=value} with the name and the {@code =} unquoted, as the shell recognises an assignment. */
    boolean isAssignment() {
        int eq = text.indexOf('=');
        return eq > 0 && eq < literalPrefix && NAME.matcher(text.substring(0, eq)).matches();
    }

    /** A reserved word such as {@code if} or {@code {}: unquoted and exactly that. */
    boolean is(String keyword) {
        return !quoted && !dynamic && text.equals(keyword);
    }

    static boolean isName(String text) {
        return NAME.matcher(text).matches();
    }
}
