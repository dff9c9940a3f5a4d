package dev.hmpagent.policy;

import dev.hmpagent.text.Text;
import dev.hmpagent.policy.RuleMatch.Kind;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
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

    private final ShellSplitter splitter = new ShellSplitter();
    private final List<Rule> deny;
    private final List<Rule> ask;
    private final List<Rule> allow;
    private final List<Rule> session = new CopyOnWriteArrayList<>();
    private final ControlSurface controlSurface;
    private final SurfaceCheck surfaceCheck;
    private final boolean personPresent;
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
        this.surfaceCheck = new SurfaceCheck(controlSurface, Path.of(System.getProperty("user.home", "/")));
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

    /** Whether someone at an interactive terminal can answer a question (false: every ASK is a DENY). */
    public boolean personPresent() {
        return personPresent;
    }

    /** True for the {@link #unconfined} policy. */
    public boolean unconfined() {
        return fallback != null;
    }

    /** The default allow rules the unconfined policy left out because they run programs named by data. */
    List<String> droppedDefaults() {
        return fallback == null ? List.of() : fallback.dropped();
    }

    /**
     * The allow rules (a person's choice) whose program can run other programs named by data or flags: without a
     * sandbox nothing confines what those run.
     */
    List<String> allowsThatRunPrograms() {
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
    List<String> sessionAllows() {
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
        Optional<PartVerdict> denied = denied(part, shown, workingDir, exempt);
        if (denied.isPresent()) {
            return denied.get();
        }
        Optional<PartVerdict> asked = asked(part, shown, workingDir);
        return asked.isPresent() ? asked.get() : allowedOrAsked(part, shown);
    }

    /** The control surface, the deny rules and, without a sandbox, the fallback's denials. */
    private Optional<PartVerdict> denied(ShellCommand part, String shown, Path workingDir, List<Path> exempt) {
        Optional<String> surface = surfaceCheck.touches(part, workingDir, exempt);
        if (surface.isPresent()) {
            return deny(shown + " " + surface.get()
                    + ", which is part of the control surface (refused whatever the rules say)");
        }
        Optional<Rule> denied = RuleMatch.first(deny, part, Kind.DENY);
        if (denied.isPresent()) {
            return deny(shown + " matches deny rule \"" + denied.get().text() + "\"");
        }
        if (fallback == null) {
            return Optional.empty();
        }
        Optional<String> through = fallback.deniedThrough(part, deny);
        if (through.isPresent()) {
            return deny(shown + " " + through.get());
        }
        return fallback.leavesRoots(part, workingDir, exempt)
                .flatMap(leaves -> deny(shown + " " + leaves + " (no sandbox: paths must stay in the file roots)"));
    }

    private static Optional<PartVerdict> deny(String reason) {
        return Optional.of(new PartVerdict(Verdict.DENY, reason, "", true));
    }

    /**
     * The ask rules, a possible write to the person's standing instructions, a file replaced while rm is denied, and
     * a word known only when it runs that could name the surface.
     */
    private Optional<PartVerdict> asked(ShellCommand part, String shown, Path workingDir) {
        Optional<Rule> asked = RuleMatch.first(ask, part, Kind.ASK);
        if (asked.isPresent()) {
            return Optional.of(new PartVerdict(Verdict.ASK, shown + " matches ask rule \"" + asked.get().text() + "\"",
                    "", true));
        }
        Optional<String> instructions = surfaceCheck.mayWriteAsked(part, workingDir);
        if (instructions.isPresent()) {
            return Optional.of(new PartVerdict(Verdict.ASK, shown + " " + instructions.get()
                    + ", the person's standing instructions, which only a person may change", "", true));
        }
        Optional<String> replaces = fallback == null ? Optional.empty() : fallback.replacesFiles(part, deny);
        if (replaces.isPresent()) {
            return Optional.of(new PartVerdict(Verdict.ASK, shown + ": " + replaces.get(), "", true));
        }
        boolean opensNothing = part.words().isEmpty() && part.redirects().isEmpty();
        for (String wildcard : opensNothing ? List.<String>of() : part.wildcards()) {
            Optional<String> could = controlSurface.couldBeNamedBy(wildcard);
            if (could.isPresent()) {
                return Optional.of(new PartVerdict(Verdict.ASK, shown + " has a word only known when it runs (a glob,"
                        + " $…, or names from xargs/find) that could name " + could.get()
                        + ", part of the control surface", "", true));
            }
        }
        return Optional.empty();
    }

    /** The allow and session rules; a part none allows is asked about. */
    private PartVerdict allowedOrAsked(ShellCommand part, String shown) {
        Optional<String> runs = fallback == null ? Optional.empty() : fallback.needsNamingRule(part);
        // without a sandbox, "*" does not allow a program that runs programs: only a rule naming it does
        Optional<Rule> allowed = Stream.concat(allow.stream(), session.stream())
                .filter(rule -> runs.isEmpty() || !rule.matchesEverything())
                .filter(rule -> RuleMatch.matches(rule, part, Kind.ALLOW)).findFirst();
        if (allowed.isPresent()) {
            return new PartVerdict(Verdict.ALLOW, shown + " matches allow rule \"" + allowed.get().text() + "\""
                    + runs.map(why -> " (" + why + "; no sandbox confines them)").orElse(""), "", true);
        }
        if (runs.isPresent() && !RuleMatch.runsNothing(part)) {
            String dropped = fallback.dropped().stream().anyMatch(d -> RuleMatch.matches(Rule.parse(d), part, Kind.ALLOW))
                    ? "; the default allow rule for it is dropped without the sandbox" : "";
            return new PartVerdict(Verdict.ASK, shown + ": " + runs.get() + ", and without the sandbox only an allow"
                    + " rule naming it allows it, not \"*\"" + dropped, RuleMatch.suggestedPrefix(part), true);
        }
        if (RuleMatch.runsNothing(part)) {
            return new PartVerdict(Verdict.ALLOW, "", "", false);
        }
        if (part.opaque()) {
            return new PartVerdict(Verdict.ASK, shown + " runs inline code the policy cannot read; only an allow"
                    + " rule naming the whole command allows it", RuleMatch.quoted(RuleMatch.allowTarget(part)), true);
        }
        return new PartVerdict(Verdict.ASK, shown + " matches no allow rule", RuleMatch.suggestedPrefix(part), true);
    }

    /** A part or a word as shown in a reason: on one line, newlines as {@code \\n}, cut at 80 characters. */
    static String clip(String text) {
        String line = text.replace("\n", "\\n").replace("\r", "\\r");
        return Text.cut(line, SHOWN_PART);
    }
}
