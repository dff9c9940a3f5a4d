package dev.hmpagent.runtime;

import dev.hmpagent.policy.ControlSurface;
import dev.hmpagent.process.Confinement;
import dev.hmpagent.process.Launcher;
import dev.hmpagent.process.Sandbox;
import dev.hmpagent.process.SandboxProbe;
import dev.hmpagent.config.ConfigException;
import dev.hmpagent.config.SandboxSection;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Chooses the {@link Confinement} of a run from {@code [sandbox]} and what the machine offers. */
public final class Confinements {
    public static final String FALLBACK_RULES = "shell and script_run run with your user's rights, under the text policy's"
            + " stricter fallback rules (redirections and path arguments must stay inside the file roots; programs that"
            + " run other programs named by data, such as git, make, find -exec, sed, tar, need a person's yes or an"
            + " allow rule naming them, and the default allow list's git entries are dropped), and an unlock cannot be"
            + " proven to come from a person";

    /** Said after the fallback's rules when the agent runs as root: nothing then stands between a command and root. */
    public static final String AS_ROOT = " (this agent runs as root, so they run as root, with root's rights on the"
            + " whole machine: run the agent as an ordinary user, or make bubblewrap work here, to confine them)";

    private Confinements() { }

    private static String fallbackRules() {
        return FALLBACK_RULES + (SandboxProbe.runningAsRoot() ? AS_ROOT : "");
    }

    /**
     * @throws ConfigException when the sandbox would be used but a file root holds part of the control surface
     */
    static Confinement choose(SandboxSection sandbox, List<Path> roots, ControlSurface surface, Map<String, String> env) {
        Launcher fallback = Launcher.plain(sandbox.maxFileBytes(), findPrlimit(env));
        if (sandbox.mode() == SandboxSection.Mode.OFF) {
            return new Confinement(Confinement.Kind.FALLBACK, "no sandbox: sandbox.mode is off; " + fallbackRules(),
                    NOT_CONFINED, fallback);
        }
        SandboxProbe.Result probe = SandboxProbe.probe(env);
        if (probe instanceof SandboxProbe.Result.Works works) {
            Sandbox s;
            try {
                s = Sandbox.plan(works.host(), new Sandbox.Limits(sandbox.network(), sandbox.maxFileBytes(),
                        sandbox.maxProcesses()), roots, surface, Path.of(env.getOrDefault("HOME",
                        System.getProperty("user.home", "/"))));
            } catch (Sandbox.Unsafe e) {
                throw new ConfigException(e.getMessage());
            }
            Optional<String> unmapped = SandboxProbe.rootsMapped(s);
            if (unmapped.isEmpty()) {
                return new Confinement(Confinement.Kind.SANDBOXED, "sandbox: " + s.describe(),
                        "Your shell and script_run commands run in a sandbox: they see only the file roots and the"
                                + " system (read-only), " + (sandbox.network() ? "with" : "without") + " network; each"
                                + " command has its own processes, so ps and kill in one command do not see another's"
                                + " (process_list and process_stop do).", s);
            }
            probe = new SandboxProbe.Result.Fails(unmapped.get());
        }
        String reason = ((SandboxProbe.Result.Fails) probe).reason();
        if (sandbox.mode() == SandboxSection.Mode.REQUIRED) {
            return new Confinement(Confinement.Kind.REFUSED, "no sandbox: sandbox.mode is required and " + reason
                    + "; shell and script_run are refused", "shell and script_run are refused here: the sandbox they"
                    + " require is missing; do not try them.", fallback);
        }
        return new Confinement(Confinement.Kind.FALLBACK, "no sandbox: " + reason + "; " + fallbackRules(),
                NOT_CONFINED, fallback);
    }

    private static final String NOT_CONFINED = "Your shell and script_run commands run without a sandbox, under a"
            + " stricter policy: redirections and paths must stay inside the file roots (no .., no absolute paths"
            + " outside them, no $VAR or $(…) in a path), and programs that run other programs named by data (git,"
            + " make, find -exec, sed, tar, xargs, interpreters, …) need a person's approval.";

    /** The built-in {@code policy.shell_allow}: the list whose entries that run programs the fallback drops. */
    static List<String> defaultAllow() {
        return dev.hmpagent.config.LoadedConfig.defaults().config().policy().shellAllow();
    }

    /**
     * What {@code agent check} adds without the sandbox: the default allow rules dropped, and the allow rules a person
     * wrote whose programs can run other programs (theirs to keep, but nothing confines what those run).
     */
    public static List<String> fallbackLines(dev.hmpagent.config.PolicySection policy) {
        List<String> dropped = dev.hmpagent.policy.ShellPolicy.droppedWithoutSandbox(policy.shellAllow(),
                defaultAllow());
        List<String> yours = dev.hmpagent.policy.ShellPolicy.runningPrograms(policy.shellAllow().stream()
                .filter(rule -> !dropped.contains(rule)).toList());
        List<String> out = new java.util.ArrayList<>();
        if (!dropped.isEmpty()) {
            out.add("no sandbox: the default allow rules " + String.join(", ", dropped)
                    + " are dropped (their programs run other programs named by data); they need a person's yes");
        }
        if (!yours.isEmpty()) {
            out.add("no sandbox: your allow rules " + String.join(", ", yours)
                    + " name programs that can run other programs; nothing confines what those run");
        }
        return out;
    }

    private static java.util.Optional<Path> findPrlimit(Map<String, String> env) {
        for (String p : List.of("/usr/bin/prlimit", "/bin/prlimit")) {
            Path path = Path.of(p);
            if (java.nio.file.Files.isExecutable(path)) return java.util.Optional.of(path);
        }
        return java.util.Optional.empty();
    }
}
