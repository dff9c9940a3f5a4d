package dev.hmpagent.policy;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The options a wrapper such as {@code xargs} or {@code timeout} accepts, so the splitter finds where
 * the wrapped command starts. An unknown option is refused rather than guessed: guessing wrong would
 * take the wrapped command for an option's argument and let it through unchecked.
 *
 * @param flags             short options without an argument ({@code "0rt"})
 * @param withArgument      short options that take one, attached ({@code -n1}) or as the next word
 * @param longFlags         long options without an argument
 * @param longWithArgument  long options that take one, as {@code --x=v} or as the next word
 * @param optionalArgument  short options whose argument, if any, is attached ({@code xargs -i{}})
 */
record Options(String flags, String withArgument, Set<String> longFlags, Set<String> longWithArgument,
               String optionalArgument) {
    Options {
        Objects.requireNonNull(flags, "flags");
        Objects.requireNonNull(withArgument, "withArgument");
        longFlags = Set.copyOf(longFlags);
        longWithArgument = Set.copyOf(longWithArgument);
        Objects.requireNonNull(optionalArgument, "optionalArgument");
    }

    Options(String flags, String withArgument, Set<String> longFlags, Set<String> longWithArgument) {
        this(flags, withArgument, longFlags, longWithArgument, "");
    }

    static Options none() {
        return new Options("", "", Set.of(), Set.of());
    }

    Options withOptionalArguments(String letters) {
        return new Options(flags, withArgument, longFlags, longWithArgument, letters);
    }

    /** How many of {@code args} are options (a {@code --} included); the wrapped command starts after them. */
    int skip(String program, List<Word> args) throws ShellSyntaxException {
        int i = 0;
        while (i < args.size()) {
            Word w = args.get(i);
            String t = w.text();
            if (w.dynamic() || !t.startsWith("-") || t.equals("-")) {
                return i;
            }
            if (t.equals("--")) {
                return i + 1;
            }
            if (t.startsWith("--")) {
                String name = t.contains("=") ? t.substring(0, t.indexOf('=')) : t;
                if (longWithArgument.contains(name)) {
                    i += t.contains("=") ? 1 : 2;
                } else if (longFlags.contains(name)) {
                    i++;
                } else {
                    throw unknown(program, t);
                }
                continue;
            }
            i += shortCluster(program, t) ? 2 : 1;
        }
        return i;
    }

    /** True when the cluster's last option takes the next word as its argument. */
    private boolean shortCluster(String program, String cluster) throws ShellSyntaxException {
        for (int j = 1; j < cluster.length(); j++) {
            char c = cluster.charAt(j);
            if (withArgument.indexOf(c) >= 0) {
                return j + 1 == cluster.length();
            }
            if (optionalArgument.indexOf(c) >= 0) {
                return false;
            }
            if (flags.indexOf(c) < 0) {
                throw unknown(program, cluster);
            }
        }
        return false;
    }

    private static ShellSyntaxException unknown(String program, String option) {
        String shown = option.length() <= 30 ? option : option.substring(0, 30) + "…";
        return new ShellSyntaxException("unknown option " + shown + " of " + program
                + " (the command it wraps cannot be found safely)");
    }
}
