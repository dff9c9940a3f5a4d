package dev.hmpagent.policy;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Decides whether a {@code shell} command line may run. The line is split into every simple command it
 * would run ({@link ShellSplitter}); each part is checked against the control surface first (denied
 * whatever the rules say), then the deny rules, the ask rules and the allow rules, first match wins.
 * One denied part denies the line; otherwise one part to ask about asks; only a line whose every part
 * is allowed is allowed. A part no rule allows is asked when a person can answer and denied when
 * nobody can; so is a line the splitter cannot understand, which is always denied.
 *
 * <p>Thread-safe: the session allow list may grow from the thread that asks the person while the
 * executor checks.
 */
public final class ShellPolicy {
    /** What to do with a command line. */
    public enum Verdict { ALLOW, DENY, ASK }

    /**
     * A verdict and why.
     *
     * @param reason          one line naming the part that decided and the rule, e.g.
     *                        {@code denied: "rm -rf /" matches deny rule "rm"}
     * @param sessionPrefixes for ASK: the prefixes an "always" answer should pass to
     *                        {@link #allowForSession(String)} (empty when "always" could not help, e.g. the part
     *                        matched an ask rule); empty for ALLOW and DENY
     */
    public record Decision(Verdict verdict, String reason, List<String> sessionPrefixes) {
        public Decision {
            Objects.requireNonNull(verdict, "verdict");
            Objects.requireNonNull(reason, "reason");
            sessionPrefixes = List.copyOf(Objects.requireNonNull(sessionPrefixes, "sessionPrefixes"));
        }
    }

    private static final int SHOWN_PART = 80;
    private static final Pattern SUBCOMMAND = Pattern.compile("[a-z][a-z0-9-]*");
    /** Variables a leading assignment may set without the rule having to name it; the rest can change what runs. */
    private static final Set<String> HARMLESS_VARIABLES =
            Set.of("LANG", "LANGUAGE", "TZ", "TERM", "COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "CLICOLOR");

    private enum Kind { DENY, ASK, ALLOW }

    private final ShellSplitter splitter = new ShellSplitter();
    private final List<Rule> deny;
    private final List<Rule> ask;
    private final List<Rule> allow;
    private final List<Rule> session = new CopyOnWriteArrayList<>();
    private final ControlSurface controlSurface;
    private final boolean personPresent;
    private final Path home;
    /** The stricter rules without a sandbox; null when a sandbox confines what the commands reach. */
    private final Fallback fallback;

    /**
     * @param personPresent true when someone at an interactive terminal can answer a question; false
     *                      (headless, piped input) turns every ASK into a DENY
     */
    public ShellPolicy(ShellRules rules, ControlSurface controlSurface, boolean personPresent) {
        this(rules, controlSurface, personPresent, null);
    }

    private ShellPolicy(ShellRules rules, ControlSurface controlSurface, boolean personPresent, Fallback fallback) {
        Objects.requireNonNull(rules, "rules");
        this.deny = rules.deny().stream().map(Rule::parse).toList();
        this.ask = rules.ask().stream().map(Rule::parse).toList();
        this.allow = rules.allow().stream().map(Rule::parse).toList();
        this.controlSurface = Objects.requireNonNull(controlSurface, "controlSurface");
        this.personPresent = personPresent;
        this.home = Path.of(System.getProperty("user.home", "/"));
        this.fallback = fallback;
    }

    /**
     * The policy for commands no sandbox confines ({@link Fallback}): the allow rules of {@code defaultAllow} (the
     * built-in default list) whose program runs other programs named by data ({@code git status}) are dropped; a
     * program that runs programs, or one started by its path, is allowed only by a rule naming it, never by
     * {@code "*"}; a deny rule also applies where its program appears in such a program's arguments; and
     * redirections and path arguments must stay inside {@code roots}. Deny rules and the control surface still
     * come first.
     */
    public static ShellPolicy unconfined(ShellRules rules, List<String> defaultAllow, ControlSurface controlSurface,
                                         boolean personPresent, List<Path> roots) {
        Objects.requireNonNull(rules, "rules");
        List<String> dropped = droppedWithoutSandbox(rules.allow(), defaultAllow);
        List<String> kept = rules.allow().stream().filter(rule -> !dropped.contains(rule)).toList();
        return new ShellPolicy(new ShellRules(rules.deny(), rules.ask(), kept), controlSurface, personPresent,
                new Fallback(roots, Path.of(System.getProperty("user.home", "/")), dropped));
    }

    /**
     * The rules of {@code allow} that the unconfined policy drops: those of the built-in default list
     * {@code defaultAllow} whose program runs other programs named by data ({@code git status}).
     */
    public static List<String> droppedWithoutSandbox(List<String> allow, List<String> defaultAllow) {
        List<String> defaults = defaultAllow.stream().map(d -> Rule.parse(d).text()).toList();
        return allow.stream().filter(rule -> defaults.contains(Rule.parse(rule).text())
                && Fallback.ruleRunsPrograms(rule)).toList();
    }

    /** The rules of {@code rules} whose program can run other programs named by its data, files or flags. */
    public static List<String> runningPrograms(List<String> rules) {
        return rules.stream().filter(Fallback::ruleRunsPrograms).toList();
    }

    /** True for the {@link #unconfined} policy. */
    public boolean unconfined() {
        return fallback != null;
    }

    /** The default allow rules the unconfined policy left out because they run programs named by data. */
    public List<String> droppedDefaults() {
        return fallback == null ? List.of() : fallback.dropped();
    }

    /**
     * The allow rules (a person's choice) whose program can run other programs named by data or flags: without a
     * sandbox nothing confines what those run.
     */
    public List<String> allowsThatRunPrograms() {
        return runningPrograms(allow.stream().map(Rule::text).toList());
    }

    /** Checks {@code commandLine} as run from the agent's working directory. */
    public Decision check(String commandLine) {
        return check(commandLine, Path.of("").toAbsolutePath());
    }

    /** Checks {@code commandLine} as run from {@code workingDir} (relative file names resolve against it). */
    public Decision check(String commandLine, Path workingDir) {
        return check(commandLine, workingDir, List.of());
    }

    /**
     * As {@link #check(String, Path)}, with {@code ownFiles} named freely although they are part of the control
     * surface or outside the roots: a {@code script_run}'s own script file in the scripts folder.
     */
    public Decision check(String commandLine, Path workingDir, List<Path> ownFiles) {
        Objects.requireNonNull(commandLine, "commandLine");
        Objects.requireNonNull(workingDir, "workingDir");
        List<Path> exempt = Objects.requireNonNull(ownFiles, "ownFiles").stream()
                .map(f -> Canonical.of(f.toAbsolutePath()).path()).toList();
        if (commandLine.isBlank()) {
            return new Decision(Verdict.DENY, "denied: the command line is empty", List.of());
        }
        ShellSplit split = splitter.split(commandLine);
        if (!split.ok()) {
            return new Decision(Verdict.DENY, "denied: cannot tell what it would run (" + split.error() + ")", List.of());
        }
        if (split.commands().isEmpty()) {
            return new Decision(Verdict.DENY, "denied: the command line runs nothing", List.of());
        }
        List<PartVerdict> verdicts = split.commands().stream().map(part -> judge(part, workingDir, exempt)).toList();
        return combine(verdicts);
    }

    /**
     * Allows {@code prefix} like an allow rule, for the life of this policy only (the person's "always"
     * answer). Deny and ask rules and the control surface still come first.
     */
    public void allowForSession(String prefix) {
        Rule rule = Rule.parse(Objects.requireNonNull(prefix, "prefix"));
        if (rule.matchesEverything()) {
            throw new IllegalArgumentException("allowForSession needs a command prefix, not one that allows everything");
        }
        session.add(rule);
    }

    /** The prefixes allowed for this session so far, in order. */
    public List<String> sessionAllows() {
        return session.stream().map(Rule::text).toList();
    }

    private record PartVerdict(Verdict verdict, String reason, String sessionPrefix, boolean counts) {
    }

    private Decision combine(List<PartVerdict> verdicts) {
        for (PartVerdict v : verdicts) {
            if (v.verdict() == Verdict.DENY) {
                return new Decision(Verdict.DENY, "denied: " + v.reason(), List.of());
            }
        }
        List<PartVerdict> asks = verdicts.stream().filter(v -> v.verdict() == Verdict.ASK).toList();
        if (!asks.isEmpty()) {
            String more = asks.size() > 1 ? " (and " + (asks.size() - 1) + " more part" + (asks.size() > 2 ? "s" : "")
                    + " to ask about)" : "";
            if (!personPresent) {
                return new Decision(Verdict.DENY, "denied: " + asks.get(0).reason() + more
                        + ", and nobody can answer", List.of());
            }
            List<String> prefixes = asks.stream().map(PartVerdict::sessionPrefix).toList();
            boolean alwaysHelps = prefixes.stream().noneMatch(String::isEmpty);
            return new Decision(Verdict.ASK, "asking: " + asks.get(0).reason() + more,
                    alwaysHelps ? prefixes.stream().distinct().toList() : List.of());
        }
        String why = verdicts.stream().filter(PartVerdict::counts).map(PartVerdict::reason).distinct()
                .collect(Collectors.joining("; "));
        return new Decision(Verdict.ALLOW, "allowed: " + (why.isEmpty() ? "it runs no program" : why), List.of());
    }

    private PartVerdict judge(ShellCommand part, Path workingDir, List<Path> exempt) {
        String shown = "\"" + clip(part.text()) + "\"";
        Optional<String> surface = controlSurface(part, workingDir, exempt);
        if (surface.isPresent()) {
            return new PartVerdict(Verdict.DENY, shown + " " + surface.get()
                    + ", which is part of the control surface (refused whatever the rules say)", "", true);
        }
        Optional<Rule> denied = first(deny, part, Kind.DENY);
        if (denied.isPresent()) {
            return new PartVerdict(Verdict.DENY, shown + " matches deny rule \"" + denied.get().text() + "\"", "", true);
        }
        if (fallback != null) {
            Optional<String> through = fallback.deniedThrough(part, deny);
            if (through.isPresent()) {
                return new PartVerdict(Verdict.DENY, shown + " " + through.get(), "", true);
            }
            Optional<String> leaves = fallback.leavesRoots(part, workingDir, exempt);
            if (leaves.isPresent()) {
                return new PartVerdict(Verdict.DENY, shown + " " + leaves.get() + " (no sandbox: paths must stay in"
                        + " the file roots)", "", true);
            }
        }
        Optional<Rule> asked = first(ask, part, Kind.ASK);
        if (asked.isPresent()) {
            return new PartVerdict(Verdict.ASK, shown + " matches ask rule \"" + asked.get().text() + "\"", "", true);
        }
        Optional<String> replaces = fallback == null ? Optional.empty() : fallback.replacesFiles(part, deny);
        if (replaces.isPresent()) {
            return new PartVerdict(Verdict.ASK, shown + ": " + replaces.get(), "", true);
        }
        boolean opensNothing = part.words().isEmpty() && part.redirects().isEmpty();
        for (String wildcard : opensNothing ? List.<String>of() : part.wildcards()) {
            Optional<String> could = controlSurface.couldBeNamedBy(wildcard);
            if (could.isPresent()) {
                return new PartVerdict(Verdict.ASK, shown + " has a word only known when it runs (a glob, $…, or"
                        + " names from xargs/find) that could name " + could.get()
                        + ", part of the control surface", "", true);
            }
        }
        Optional<String> runs = fallback == null ? Optional.empty() : fallback.needsNamingRule(part);
        // without a sandbox, "*" does not allow a program that runs programs: only a rule naming it does
        Optional<Rule> allowed = Stream.concat(allow.stream(), session.stream())
                .filter(rule -> runs.isEmpty() || !rule.matchesEverything())
                .filter(rule -> matches(rule, part, Kind.ALLOW)).findFirst();
        if (allowed.isPresent()) {
            return new PartVerdict(Verdict.ALLOW, shown + " matches allow rule \"" + allowed.get().text() + "\""
                    + runs.map(why -> " (" + why + "; no sandbox confines them)").orElse(""), "", true);
        }
        if (runs.isPresent() && !(part.words().isEmpty() && sensitiveAssignments(part).isEmpty())) {
            String dropped = fallback.dropped().stream().anyMatch(d -> matches(Rule.parse(d), part, Kind.ALLOW))
                    ? "; the default allow rule for it is dropped without the sandbox" : "";
            return new PartVerdict(Verdict.ASK, shown + ": " + runs.get() + ", and without the sandbox only an allow"
                    + " rule naming it allows it, not \"*\"" + dropped, suggestedPrefix(part), true);
        }
        if (part.words().isEmpty() && sensitiveAssignments(part).isEmpty()) {
            return new PartVerdict(Verdict.ALLOW, "", "", false);
        }
        if (part.opaque()) {
            return new PartVerdict(Verdict.ASK, shown + " runs inline code the policy cannot read; only an allow"
                    + " rule naming the whole command allows it", quoted(allowTarget(part)), true);
        }
        return new PartVerdict(Verdict.ASK, shown + " matches no allow rule", suggestedPrefix(part), true);
    }

    /** What makes the part touch the control surface ("runs sqlite3", "names agent.db"), if anything. */
    private Optional<String> controlSurface(ShellCommand part, Path workingDir, List<Path> exempt) {
        if (ControlSurface.isControlProgram(part.programName())) {
            return Optional.of("runs " + part.programName());
        }
        List<String> all = Stream.of(part.assignments(), part.words(), part.redirects())
                .flatMap(List::stream).toList();
        for (String word : all) {
            Optional<String> name = controlSurface.nameIn(word);
            if (name.isPresent()) {
                return Optional.of("names " + name.get());
            }
        }
        for (String word : all) {
            for (String candidate : pathsIn(word)) {
                if (resolve(candidate, workingDir).filter(p -> exempt.contains(Canonical.of(p).path())).isPresent()) {
                    continue;
                }
                Optional<Path> file = resolve(candidate, workingDir).flatMap(controlSurface::covering);
                if (file.isPresent()) {
                    return Optional.of("names " + file.get() + " (as " + clip(candidate) + ")");
                }
            }
        }
        return Optional.empty();
    }

    /** The word and, for {@code --db=path} or {@code X=path}, what follows the first {@code =}. */
    static List<String> pathsIn(String word) {
        List<String> out = new ArrayList<>();
        if (!word.isEmpty() && !word.startsWith("-")) {
            out.add(word);
        }
        int eq = word.indexOf('=');
        if (eq >= 0 && eq + 1 < word.length()) {
            out.add(word.substring(eq + 1));
        }
        return out;
    }

    private Optional<Path> resolve(String word, Path workingDir) {
        try {
            if (word.equals("~")) {
                return Optional.of(home);
            }
            if (word.startsWith("~/")) {
                return Optional.of(home.resolve(word.substring(2)));
            }
            return Optional.of(workingDir.resolve(word));
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }

    private Optional<Rule> first(List<Rule> rules, ShellCommand part, Kind kind) {
        return rules.stream().filter(rule -> matches(rule, part, kind)).findFirst();
    }

    /**
     * Word by word; the program by its file name for deny and ask ({@code /bin/rm} is rm) but as written
     * for allow (an allow rule "ls" does not allow {@code ./ls}, a file the LLM may have written). For
     * allow, a leading assignment that can change what runs ({@code PATH=.}, {@code GIT_PAGER=…}) must be
     * in the rule too, and an opaque part must equal the rule; "*" allows no opaque part.
     */
    private boolean matches(Rule rule, ShellCommand part, Kind kind) {
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

    private static List<String> allowTarget(ShellCommand part) {
        List<String> target = new ArrayList<>(sensitiveAssignments(part));
        target.addAll(part.words());
        return target;
    }

    /** Assignments to upper-case names other than locale and display settings ({@code PATH}, {@code LD_PRELOAD}, {@code GIT_PAGER}). */
    private static List<String> sensitiveAssignments(ShellCommand part) {
        return part.assignments().stream().filter(a -> {
            String name = a.substring(0, Math.max(0, a.indexOf('=')));
            boolean lowerCase = !name.equals(name.toUpperCase(Locale.ROOT));
            return !lowerCase && !HARMLESS_VARIABLES.contains(name) && !name.startsWith("LC_");
        }).toList();
    }

    /** The program (and a subcommand such as {@code push} in {@code git push}) with the assignments that matter. */
    private static String suggestedPrefix(ShellCommand part) {
        List<String> prefix = new ArrayList<>(sensitiveAssignments(part));
        if (!part.words().isEmpty()) {
            prefix.add(part.program());
            if (part.words().size() > 1 && SUBCOMMAND.matcher(part.words().get(1)).matches()) {
                prefix.add(part.words().get(1));
            }
        }
        return quoted(prefix);
    }

    private static String quoted(List<String> words) {
        return words.stream().map(ShellCommand::quote).collect(Collectors.joining(" "));
    }

    private static String clip(String text) {
        String line = text.replace("\n", "\\n").replace("\r", "\\r");
        return line.length() <= SHOWN_PART ? line : line.substring(0, SHOWN_PART) + "…";
    }
}
