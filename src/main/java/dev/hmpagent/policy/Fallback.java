package dev.hmpagent.policy;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The stricter rules of the text policy when no sandbox confines what the LLM runs ({@code sandbox.mode = "off"},
 * or {@code auto} where bubblewrap cannot work): a command then runs with the user's rights on the user's files,
 * so the policy must decide alone what it can reach.
 *
 * <ul>
 *   <li>Programs that run other programs named by their data, files or flags ({@link #RUNNERS}: git runs its
 *       config's {@code core.fsmonitor} and hooks, make its Makefile, tar {@code --checkpoint-action}, sed its
 *       {@code e} command, …) are allowed only by a rule naming them, never by {@code "*"}, and the default allow
 *       list's entries for them are dropped; so is a program started by its path ({@code ./del}).</li>
 *   <li>A deny rule also denies its program wherever it appears in such a program's arguments ({@code flock F rm},
 *       {@code tar --checkpoint-action=exec=rm}); a denied {@code rm} also denies the programs that only delete
 *       ({@code unlink}, {@code shred}, {@code find -delete}) and asks about {@code mv}, which can replace a file.</li>
 *   <li>Redirections and arguments are resolved against the working directory (and {@code ~}, {@code $HOME})
 *       and canonicalised (symbolic links, {@code ..}); one that leads outside the file roots is refused, except
 *       {@code /dev/null}. A redirection, or an argument of any program but {@code echo}/{@code printf}, holding
 *       {@code $X}, {@code $(…)} or backticks is refused: no reading of the text can tell what it names. A
 *       redirection into {@code .git} is refused, like a {@code file_write} there.</li>
 * </ul>
 */
final class Fallback {
    /**
     * Programs that run programs (or shell commands) named by their data, their files or their flags. Wrappers
     * the splitter sees through ({@code env}, {@code nice}, {@code nohup}, {@code timeout}) are listed for when
     * they stand alone.
     */
    static final Set<String> RUNNERS = Set.of(
            // version control and build tools: hooks, config values and build files are commands
            "git", "make", "gmake", "bmake", "cmake", "ninja", "npm", "npx", "yarn", "pnpm", "pip", "pip3", "cargo",
            "mvn", "gradle", "ant",
            // archivers and text tools with a command hidden in a flag or a script
            "tar", "sed", "awk", "gawk", "mawk", "nawk", "zip", "rsync", "parallel", "entr", "xargs",
            // wrappers: the rest of the line (or a string) is a command
            "env", "nice", "nohup", "timeout", "setsid", "flock", "ionice", "taskset", "chrt", "script", "watch",
            "strace", "ltrace", "gdb", "busybox", "sudo", "doas", "su", "runuser", "pkexec", "nsenter", "unshare",
            "chroot", "systemd-run", "at", "batch", "crontab", "tmux", "screen", "expect", "time", "stdbuf",
            // interpreters: a script file or -c is code
            "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "yash", "rbash", "fish", "csh", "tcsh",
            "perl", "python", "python2", "python3", "pypy", "pypy3", "ruby", "node", "nodejs", "deno", "bun", "php",
            "lua", "tclsh", "Rscript", "osascript", "java", "jshell",
            // remote shells and pagers or editors with shell escapes
            "ssh", "scp", "sftp", "less", "more", "most", "man", "vi", "vim", "nvim", "view", "ex", "ed", "emacs",
            "nano");
    /** Programs that run a program only with one of these flags ({@code find -exec}, {@code sort --compress-program}). */
    private static final List<Flagged> FLAGGED = List.of(
            new Flagged("find", Set.of("-exec", "-execdir", "-ok", "-okdir", "-delete")),
            new Flagged("sort", Set.of("--compress-program")),
            new Flagged("split", Set.of("--filter")),
            new Flagged("rg", Set.of("--pre")));
    /** With {@code rm} denied, these delete files just as well and are denied too. */
    private static final Set<String> DELETERS = Set.of("unlink", "shred");
    /** With {@code rm} denied, these can replace (so delete) a file and are asked about. */
    private static final Set<String> REPLACERS = Set.of("mv");
    /** Programs that only print their arguments: a {@code $X} among them names no file. */
    private static final Set<String> TEXT_ONLY = Set.of("echo", "printf");
    private static final Pattern TOKEN_SEPARATORS = Pattern.compile("[\\s=;|&'\"`(){}<>,:!]+");
    private static final Pattern HOME_VARIABLE = Pattern.compile("^(\\$HOME|\\$\\{HOME})(?=/|$)");

    private record Flagged(String program, Set<String> flags) { }

    private final List<Path> roots;
    private final Path home;
    private final List<String> dropped;

    /**
     * @param roots   the file roots (absolute)
     * @param dropped the default allow rules left out because their program runs programs
     */
    Fallback(List<Path> roots, Path home, List<String> dropped) {
        if (Objects.requireNonNull(roots, "roots").isEmpty()) {
            throw new IllegalArgumentException("at least one root is needed");
        }
        this.roots = roots.stream().map(r -> Canonical.of(r.toAbsolutePath().normalize()).path()).toList();
        this.home = Objects.requireNonNull(home, "home").toAbsolutePath();
        this.dropped = List.copyOf(dropped);
    }

    List<String> dropped() {
        return dropped;
    }

    /** Whether the rule's program (its first word) runs programs named by data or flags. */
    static boolean ruleRunsPrograms(String rule) {
        Rule parsed = Rule.parse(rule);
        if (parsed.matchesEverything() || parsed.words().isEmpty()) {
            return false;
        }
        List<String> words = parsed.words();
        return runsPrograms(ShellCommand.basename(words.get(0)), words.subList(1, words.size()))
                || words.get(0).contains("/");
    }

    /** Why only a rule naming this part may allow it here, or empty when {@code "*"} may. */
    Optional<String> needsNamingRule(ShellCommand part) {
        if (part.words().isEmpty()) {
            return Optional.empty();
        }
        if (part.program().contains("/")) {
            return Optional.of("starts a program by its path (" + part.program()
                    + "), which may be a file a command wrote");
        }
        String name = part.programName();
        if (runsPrograms(name, part.words().subList(1, part.words().size()))) {
            return Optional.of(name + " can run other programs named by its files, data or flags");
        }
        return Optional.empty();
    }

    private static boolean runsPrograms(String name, List<String> args) {
        if (RUNNERS.contains(name) || RUNNERS.contains(name.toLowerCase(Locale.ROOT))
                || name.matches("(python|pypy|perl|ruby|php|lua)[0-9.]*")) {
            return true;
        }
        for (Flagged f : FLAGGED) {
            if (f.program().equals(name) && args.stream().anyMatch(a -> f.flags().stream()
                    .anyMatch(flag -> a.equals(flag) || a.startsWith(flag + "=")))) {
                return true;
            }
        }
        return false;
    }

    /**
     * A deny rule this part breaks without being its program: the denied program among the arguments of one that
     * runs programs (or of inline code), or a program that does what a denied {@code rm} does. Empty when none.
     */
    Optional<String> deniedThrough(ShellCommand part, List<Rule> deny) {
        if (part.words().isEmpty()) {
            return Optional.empty();
        }
        String name = part.programName().toLowerCase(Locale.ROOT);
        boolean rmDenied = deny.stream().anyMatch(r -> r.words().size() == 1
                && ShellCommand.basename(r.words().get(0)).equalsIgnoreCase("rm"));
        if (rmDenied && (DELETERS.contains(name) || name.equals("find") && part.words().contains("-delete"))) {
            return Optional.of("deletes files like rm, and deny rule \"rm\" denies that too without the sandbox");
        }
        if (!part.opaque() && needsNamingRule(part).isEmpty()) {
            return Optional.empty();
        }
        List<String> tokens = new ArrayList<>();
        for (String word : part.words().subList(1, part.words().size())) {
            for (String t : TOKEN_SEPARATORS.split(word)) {
                if (!t.isEmpty()) tokens.add(t);
            }
        }
        for (Rule rule : deny) {
            if (rule.matchesEverything() || rule.words().isEmpty()) continue;
            List<String> words = rule.words();
            String program = ShellCommand.basename(words.get(0)).toLowerCase(Locale.ROOT);
            for (int at = 0; at < tokens.size(); at++) {
                String token = ShellCommand.basename(tokens.get(at)).toLowerCase(Locale.ROOT);
                boolean same = token.equals(program) || rmDenied && program.equals("rm") && DELETERS.contains(token);
                if (same && at + words.size() <= tokens.size()
                        && tokens.subList(at + 1, at + words.size()).equals(words.subList(1, words.size()))) {
                    return Optional.of("can run " + tokens.get(at) + ", which deny rule \"" + rule.text() + "\" denies");
                }
            }
        }
        return Optional.empty();
    }

    /** With {@code rm} denied: why this part (mv) is asked about even under an allow rule; empty otherwise. */
    Optional<String> replacesFiles(ShellCommand part, List<Rule> deny) {
        boolean rmDenied = deny.stream().anyMatch(r -> r.words().size() == 1
                && ShellCommand.basename(r.words().get(0)).equalsIgnoreCase("rm"));
        if (rmDenied && REPLACERS.contains(part.programName())) {
            return Optional.of(part.programName() + " can replace (and so delete) a file, and rm is denied");
        }
        return Optional.empty();
    }

    /**
     * Why a redirection or an argument of {@code part}, run from {@code workingDir}, may reach outside the file
     * roots (or cannot be checked); empty when every one stays inside.
     */
    Optional<String> leavesRoots(ShellCommand part, Path workingDir, List<Path> exempt) {
        for (String target : part.redirects()) {
            Optional<String> out = redirectLeaves(part, target, workingDir);
            if (out.isPresent()) return out;
        }
        boolean textOnly = TEXT_ONLY.contains(part.programName());
        List<String> args = part.words().isEmpty() ? List.of() : part.words().subList(1, part.words().size());
        for (String word : args) {
            Optional<String> out = argumentLeaves(part.expanded().contains(word), textOnly, word, workingDir, exempt);
            if (out.isPresent()) return out;
        }
        for (String assignment : part.assignments()) {
            String value = assignment.substring(assignment.indexOf('=') + 1);
            if (!part.expanded().contains(assignment) && !value.isEmpty()) {
                Optional<String> out = outside(value, assignment, workingDir);
                if (out.isPresent()) return out;
            }
        }
        return Optional.empty();
    }

    private Optional<String> redirectLeaves(ShellCommand part, String target, Path workingDir) {
        if (part.expanded().contains(target)) {
            if (HOME_VARIABLE.matcher(target).find() && !hasOtherExpansion(target)) {
                return outside(HOME_VARIABLE.matcher(target).replaceFirst(""), target, home);
            }
            return Optional.of("redirects to " + target + ", a path only known when it runs, which cannot be"
                    + " checked without the sandbox");
        }
        Optional<String> out = outside(target, target, workingDir);
        if (out.isPresent()) return out;
        if (inGit(target, workingDir)) {
            return Optional.of("redirects into .git (" + target + "), whose config and hooks the next git command"
                    + " would run");
        }
        return Optional.empty();
    }

    private Optional<String> argumentLeaves(boolean expanded, boolean textOnly, String word, Path workingDir,
                                            List<Path> exempt) {
        for (String candidate : SurfaceCheck.pathsIn(word)) {
            if (expanded) {
                if (HOME_VARIABLE.matcher(candidate).find() && !hasOtherExpansion(candidate)) {
                    Optional<String> out = outside(HOME_VARIABLE.matcher(candidate).replaceFirst(""), word, home);
                    if (out.isPresent()) return out;
                } else if (!textOnly && hasExpansion(candidate)) {
                    return Optional.of("has the argument " + word + ", only known when it runs: it could name any"
                            + " file, which cannot be checked without the sandbox");
                }
                continue;
            }
            Optional<String> out = outside(candidate, word, workingDir);
            if (out.isPresent() && !isExempt(candidate, workingDir, exempt)) return out;
        }
        return Optional.empty();
    }

    private static boolean hasExpansion(String text) {
        return text.contains("$") || text.contains("`");
    }

    private static boolean hasOtherExpansion(String text) {
        return hasExpansion(HOME_VARIABLE.matcher(text).replaceFirst(""));
    }

    /** Why {@code path} (resolved against {@code base}) leads outside the roots; empty when it stays inside. */
    private Optional<String> outside(String path, String shown, Path base) {
        Path absolute;
        try {
            if (path.equals("~") || path.startsWith("~/")) {
                absolute = home.resolve(path.length() <= 2 ? "" : path.substring(2));
            } else if (path.startsWith("~")) {
                return Optional.of("names " + shown + ", another user's home");
            } else if (path.startsWith("/") && base == home) {
                absolute = Path.of(home + path);
            } else {
                absolute = base.resolve(path);
            }
        } catch (InvalidPathException e) {
            return Optional.empty();   // no file can have this name
        }
        if (absolute.normalize().equals(Path.of("/dev/null"))) {
            return Optional.empty();
        }
        Canonical c = Canonical.of(absolute.toAbsolutePath());
        if (!c.problem().isEmpty()) {
            return Optional.of("names " + shown + ": " + c.problem());
        }
        if (roots.stream().anyMatch(c.path()::startsWith)) {
            return Optional.empty();
        }
        return Optional.of("names " + shown + ", which is " + c.path() + ", outside the file roots ("
                + String.join(", ", roots.stream().map(Path::toString).toList()) + ")");
    }

    private static boolean isExempt(String path, Path workingDir, List<Path> exempt) {
        try {
            return exempt.contains(Canonical.of(workingDir.resolve(path).toAbsolutePath()).path());
        } catch (InvalidPathException e) {
            return false;
        }
    }

    private boolean inGit(String target, Path workingDir) {
        try {
            Path c = Canonical.of(workingDir.resolve(target).toAbsolutePath()).path();
            for (Path root : roots) {
                if (c.startsWith(root)) {
                    for (Path element : root.relativize(c)) {
                        if (element.toString().equals(".git")) return true;
                    }
                }
            }
        } catch (InvalidPathException e) {
            return false;
        }
        return false;
    }
}
