package dev.hmpagent.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** How a {@link Rule} matches one simple command of a line, and the prefix an "always" answer would allow. */
final class RuleMatch {
    /** Which list the rule comes from: deny and ask match the program by its file name, allow as written. */
    enum Kind { DENY, ASK, ALLOW }

    private static final Pattern SUBCOMMAND = Pattern.compile("[a-z][a-z0-9-]*");
    /** Variables a leading assignment may set without the rule having to name it; the rest can change what runs. */
    private static final Set<String> HARMLESS_VARIABLES =
            Set.of("LANG", "LANGUAGE", "TZ", "TERM", "COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "CLICOLOR");

    private RuleMatch() {
    }

    static Optional<Rule> first(List<Rule> rules, ShellCommand part, Kind kind) {
        return rules.stream().filter(rule -> matches(rule, part, kind)).findFirst();
    }

    /**
     * Word by word; the program by its file name for deny and ask ({@code /bin/rm} is rm) but as written
     * for allow (an allow rule "ls" does not allow {@code ./ls}, a file the LLM may have written). For
     * allow, a leading assignment that can change what runs ({@code PATH=.}, {@code GIT_PAGER=…}) must be
     * in the rule too, and an opaque part must equal the rule; "*" allows no opaque part.
     */
    static boolean matches(Rule rule, ShellCommand part, Kind kind) {
        if (part.words().isEmpty() && kind != Kind.ALLOW) {
            return false;
        }
        List<String> target = kind == Kind.ALLOW ? allowTarget(part) : part.words();
        int programAt = kind == Kind.ALLOW ? sensitiveAssignments(part).size() : 0;
        if (rule.matchesEverything()) {
            return kind != Kind.ALLOW || !part.opaque();
        }
        List<String> words = rule.words();
        if (words.size() > target.size() || kind == Kind.ALLOW && part.opaque() && words.size() != target.size()) {
            return false;
        }
        for (int k = 0; k < words.size(); k++) {
            boolean same = k == programAt && programAt < target.size()
                    ? sameProgram(words.get(k), target.get(k), kind)
                    : words.get(k).equals(target.get(k));
            if (!same) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameProgram(String ruleWord, String program, Kind kind) {
        if (kind == Kind.ALLOW) {
            return ruleWord.equals(program);
        }
        return ShellCommand.basename(ruleWord).toLowerCase(Locale.ROOT)
                .equals(ShellCommand.basename(program).toLowerCase(Locale.ROOT));
    }

    /** The sensitive assignments, then the words: what an allow rule must match. */
    static List<String> allowTarget(ShellCommand part) {
        List<String> target = new ArrayList<>(sensitiveAssignments(part));
        target.addAll(part.words());
        return target;
    }

    /** Assignments to upper-case names other than locale and display settings ({@code PATH}, {@code LD_PRELOAD}, {@code GIT_PAGER}). */
    static List<String> sensitiveAssignments(ShellCommand part) {
        return part.assignments().stream().filter(a -> {
            String name = a.substring(0, Math.max(0, a.indexOf('=')));
            boolean lowerCase = !name.equals(name.toUpperCase(Locale.ROOT));
            return !lowerCase && !HARMLESS_VARIABLES.contains(name) && !name.startsWith("LC_");
        }).toList();
    }

    /** True when the part runs no program and sets nothing that could change what runs. */
    static boolean runsNothing(ShellCommand part) {
        return part.words().isEmpty() && sensitiveAssignments(part).isEmpty();
    }

    /** The program (and a subcommand such as {@code push} in {@code git push}) with the assignments that matter. */
    static String suggestedPrefix(ShellCommand part) {
        List<String> prefix = new ArrayList<>(sensitiveAssignments(part));
        if (!part.words().isEmpty()) {
            prefix.add(part.program());
            if (part.words().size() > 1 && SUBCOMMAND.matcher(part.words().get(1)).matches()) {
                prefix.add(part.words().get(1));
            }
        }
        return quoted(prefix);
    }

    static String quoted(List<String> words) {
        return words.stream().map(ShellCommand::quote).collect(Collectors.joining(" "));
    }
}
