package dev.hmpagent.policy;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One simple command a shell line would run, after quote removal and after unwrapping the commands
 * that run other commands ({@code env}, {@code sudo}, {@code sh -c}, {@code find -exec}, ...).
 *
 * @param assignments leading {@code NAME=value} words ({@code X=1 cmd}, {@code env X=1 cmd}, a bare
 *                    {@code X=1}, a {@code for x in ...} header); they change what the command sees
 * @param words       the program (as written: {@code /bin/rm} stays a path) and its arguments; empty for a
 *                    bare assignment or a redirection on its own
 * @param redirects   files the command's redirections name ({@code > out.txt}, {@code < in}); no fd duplications
 * @param wildcards   regular expressions for the words whose value only the running shell knows: globs
 *                    ({@code *.txt}), expansions ({@code $X}, {@code $(…)}), the file names {@code xargs}
 *                    and {@code find -exec} pass ({@code .*}); tested against the control surface
 * @param opaque      true when the command runs code given inline that cannot be inspected
 *                    ({@code python -c}, {@code perl -e}, {@code node -e}, {@code git -c}, {@code awk} with
 *                    {@code system(}): only a rule naming the whole command allows it
 * @param expanded    the assignments, words and redirections (as written) holding a parameter or command
 *                    substitution ({@code $X}, {@code $(…)}, backticks): no reading of the text can tell what
 *                    file they name
 */
public record ShellCommand(List<String> assignments, List<String> words, List<String> redirects,
                           List<String> wildcards, boolean opaque, List<String> expanded) {
    /** Words without these read the same unquoted; expansions ($X) and globs stay as written. */
    private static final Pattern NEEDS_QUOTES = Pattern.compile("[\\s'\"\\\\;&|<>()`]");

    public ShellCommand {
        assignments = List.copyOf(Objects.requireNonNull(assignments, "assignments"));
        words = List.copyOf(Objects.requireNonNull(words, "words"));
        redirects = List.copyOf(Objects.requireNonNull(redirects, "redirects"));
        wildcards = List.copyOf(Objects.requireNonNull(wildcards, "wildcards"));
        expanded = List.copyOf(Objects.requireNonNull(expanded, "expanded"));
    }

    /** A command none of whose words holds a substitution. */
    public ShellCommand(List<String> assignments, List<String> words, List<String> redirects, List<String> wildcards,
                        boolean opaque) {
        this(assignments, words, redirects, wildcards, opaque, List.of());
    }

    /** A command with only words, for tests and callers that build one by hand. */
    public static ShellCommand of(String... words) {
        return new ShellCommand(List.of(), List.of(words), List.of(), List.of(), false);
    }

    /** The program as written ({@code /bin/rm}), or "" when the command runs no program. */
    public String program() {
        return words.isEmpty() ? "" : words.get(0);
    }

    /** The program's file name ({@code rm} for {@code /bin/rm}), or "". */
    String programName() {
        return basename(program());
    }

    static String basename(String program) {
        String trimmed = program.endsWith("/") ? program.substring(0, program.length() - 1) : program;
        int slash = trimmed.lastIndexOf('/');
        return slash < 0 ? trimmed : trimmed.substring(slash + 1);
    }

    /** Assignments, words and redirections as one shell-like line, quoting what needs it: {@code X=1 grep 'a;b' f}. */
    public String text() {
        Stream<String> parts = Stream.concat(assignments.stream(), words.stream()).map(ShellCommand::quote);
        Stream<String> targets = redirects.stream().map(target -> "> " + quote(target));
        return Stream.concat(parts, targets).collect(Collectors.joining(" "));
    }

    static String quote(String word) {
        if (!word.isEmpty() && !NEEDS_QUOTES.matcher(word).find()) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
