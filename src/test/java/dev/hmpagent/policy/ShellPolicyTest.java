package dev.hmpagent.policy;

import static dev.hmpagent.policy.ShellPolicy.Verdict.ALLOW;
import static dev.hmpagent.policy.ShellPolicy.Verdict.ASK;
import static dev.hmpagent.policy.ShellPolicy.Verdict.DENY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.policy.ShellPolicy.Decision;
import dev.hmpagent.policy.ShellPolicy.Verdict;
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

class ShellPolicyTest {
    private static final ShellRules RULES = new ShellRules(
            List.of("rm", "shutdown"),
            List.of("git push"),
            List.of("ls", "git status", "grep", "echo", "cat", "find", "xargs"));
    private static final ShellRules ALLOW_ALL = new ShellRules(List.of(), List.of(), List.of("*"));

    @TempDir
    Path dir;
    private ControlSurface surface;

    @BeforeEach
    void files() throws IOException {
        Files.writeString(dir.resolve("agent.db"), "SQLite format 3");
        Files.writeString(dir.resolve("agent.toml"), "[llm]\n");
        surface = ControlSurface.forDatabase(dir.resolve("agent.db"), List.of(dir.resolve("agent.toml")));
    }

    private Decision check(ShellRules rules, boolean personPresent, String line) {
        Decision d = new ShellPolicy(rules, surface, personPresent).check(line, dir);
        assertThat(d.reason()).as("one line").doesNotContain("\n").isNotBlank();
        return d;
    }

    /** Line; verdict with a person at the terminal; verdict with nobody to answer. */
    static Stream<Arguments> table() {
        return Stream.of(
                // allowed: every part matches an allow rule (a splitter that denies everything fails here)
                row("git status", ALLOW, ALLOW),
                row("git status -s", ALLOW, ALLOW),
                row("grep 'a;b' f", ALLOW, ALLOW),
                row("ls \"my dir\"", ALLOW, ALLOW),
                row("ls -la | grep x", ALLOW, ALLOW),
                row("ls && echo 'done; rm x'", ALLOW, ALLOW),
                row("ls\ngit status", ALLOW, ALLOW),
                row("LANG=C ls > listing.txt 2>&1", ALLOW, ALLOW),
                row("timeout 5 ls", ALLOW, ALLOW),
                row("find . -name '*.txt'", ALLOW, ALLOW),
                row("grep -r \"$(echo x)\" notes", ASK, DENY),
                // a denied part anywhere denies the whole line
                row("rm -rf x; ls", DENY, DENY),
                row("ls && rm x", DENY, DENY),
                row("ls || rm x", DENY, DENY),
                row("ls & rm x", DENY, DENY),
                row("ls | rm x", DENY, DENY),
                row("ls\nrm x", DENY, DENY),
                row("echo $(rm x)", DENY, DENY),
                row("echo \"$(rm x)\"", DENY, DENY),
                row("echo `rm x`", DENY, DENY),
                row("cat <(rm x)", DENY, DENY),
                row("(ls; rm x)", DENY, DENY),
                row("if ls; then rm x; fi", DENY, DENY),
                row("env X=1 rm x", DENY, DENY),
                row("env -i rm x", DENY, DENY),
                row("X=1 rm", DENY, DENY),
                row("sh -c 'rm x'", DENY, DENY),
                row("bash -c \"ls; rm x\"", DENY, DENY),
                row("zsh -c 'echo ok && rm x'", DENY, DENY),
                row("dash -c 'sh -c \"rm x\"'", DENY, DENY),
                row("/bin/rm x", DENY, DENY),
                row("./rm x", DENY, DENY),
                row("RM x", DENY, DENY),
                row("'r''m' x", DENY, DENY),
                row("\"rm\" x", DENY, DENY),
                row("r\\m x", DENY, DENY),
                row("\\rm x", DENY, DENY),
                row("$'\\x72m' x", DENY, DENY),
                row("find . -exec rm {} \\;", DENY, DENY),
                row("find . -execdir rm {} +", DENY, DENY),
                row("ls | xargs rm", DENY, DENY),
                row("xargs -0 rm -f", DENY, DENY),
                row("nohup rm x &", DENY, DENY),
                row("timeout 5 rm x", DENY, DENY),
                row("nice -n 5 rm x", DENY, DENY),
                row("sudo rm x", DENY, DENY),
                row("command rm x", DENY, DENY),
                row("exec rm x", DENY, DENY),
                row("time rm x", DENY, DENY),
                row("stdbuf -oL rm x", DENY, DENY),
                row("setsid rm x", DENY, DENY),
                row("busybox rm x", DENY, DENY),
                row("git status; shutdown now", DENY, DENY),
                // what the splitter cannot follow is denied, never allowed
                row("eval 'rm x'", DENY, DENY),
                row("ls 'unbalanced", DENY, DENY),
                row("cat <<EOF\nhi\nEOF", DENY, DENY),
                row("$CMD x", DENY, DENY),
                row("$(echo ls)", DENY, DENY),
                row("source ./x.sh", DENY, DENY),
                row(". ./x.sh", DENY, DENY),
                row("{ls,-la}", DENY, DENY),
                row("exec 3>out; ls >&3", DENY, DENY),
                row("", DENY, DENY),
                row("# only a comment", DENY, DENY),
                // a part no rule allows is asked when someone can answer, denied when nobody can
                row("ls | sh", ASK, DENY),
                row("ls | bash -s", ASK, DENY),
                row("env", ASK, DENY),
                row("python -c 'import os'", ASK, DENY),
                row("python3 -c 'print(1)'", ASK, DENY),
                row("perl -e 'unlink \"x\"'", ASK, DENY),
                row("node -e 'x'", ASK, DENY),
                row("awk 'BEGIN { system(\"id\") }'", ASK, DENY),
                row("git -c core.pager=rm log", ASK, DENY),
                row("git -c alias.st='!id' st", ASK, DENY),
                row("git --exec-path=/tmp status", ASK, DENY),
                row("GIT_PAGER=id git status", ASK, DENY),
                row("PATH=. ls", ASK, DENY),
                row("env LD_PRELOAD=./x.so ls", ASK, DENY),
                row("./ls", ASK, DENY),
                row("/usr/bin/ls", ASK, DENY),
                row("sudo ls", ASK, DENY),
                row("git push origin main", ASK, DENY),
                row("npm test", ASK, DENY),
                row("ls; npm test", ASK, DENY),
                row("git statusx", ASK, DENY),
                row("cat $F", ASK, DENY),
                row("ls *", ASK, DENY),
                row("ls | xargs cat", ASK, DENY),
                row("find . -exec cat {} \\;", ASK, DENY));
    }

    private static Arguments row(String line, Verdict withPerson, Verdict headless) {
        return Arguments.of(line.replace("\n", "\\n"), line, withPerson, headless);
    }

    @ParameterizedTest(name = "[{index}] {0} -> {2} / {3}")
    @MethodSource("table")
    void everyPartOfTheLineMustPass(String shown, String line, Verdict withPerson, Verdict headless) {
        assertThat(check(RULES, true, line).verdict()).as("with a person: " + shown).isEqualTo(withPerson);
        assertThat(check(RULES, false, line).verdict()).as("headless: " + shown).isEqualTo(headless);
    }

    static Stream<String> controlSurfaceLines() {
        return Stream.of("cat agent.db", "sqlite3 agent.db", "sqlite3 other.db", "cp x agent.db-wal",
                "cat agent.db-shm", "rm agent.db-journal", "rm agent.db.halt", "agent unlock",
                "/usr/local/bin/agent halt", "scripts/agent note hi", "ls > agent.db", "ls >> ./agent.db",
                "cat < ../" + "x/agent.db", "cat --file=AGENT.DB", "X=agent.db ls", "sh -c 'cat agent.db'",
                "echo $(cat agent.toml)", "cat agent.toml", "find . -name agent.db -delete",
                "python3 -c 'open(\"agent.db\")'", "env SQLITE3=1 sqlite3 x");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("controlSurfaceLines")
    void theControlSurfaceIsDeniedEvenUnderAnAllowAllRule(String line) {
        for (ShellRules rules : List.of(ALLOW_ALL, new ShellRules(List.of(), List.of(), List.of("")))) {
            for (boolean person : new boolean[] {true, false}) {
                Decision d = check(rules, person, line);
                assertThat(d.verdict()).as(line).isEqualTo(DENY);
                assertThat(d.reason()).contains("control surface");
            }
        }
        assertThat(check(ALLOW_ALL, true, "ls -la").verdict()).as("the allow-all rule itself works").isEqualTo(ALLOW);
    }

    @Test
    void aLinkToTheDatabaseUnderAnotherNameIsFoundByItsCanonicalPath() throws IOException {
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.createSymbolicLink(work.resolve("innocent"), dir.resolve("agent.db"));
        Files.createLink(work.resolve("hard"), dir.resolve("agent.db"));

        ShellPolicy policy = new ShellPolicy(ALLOW_ALL, surface, true);

        assertThat(policy.check("cat innocent", work).reason()).startsWith("denied: \"cat innocent\" names ")
                .contains("control surface");
        assertThat(policy.check("cat hard", work).verdict()).isEqualTo(DENY);
        assertThat(policy.check("cat ../work/../agent.db", work).verdict()).isEqualTo(DENY);
        assertThat(policy.check("cat plain.txt", work).verdict()).isEqualTo(ALLOW);
    }

    @Test
    void aWordOnlyKnownWhenItRunsThatCouldNameTheDatabaseIsAskedEvenUnderAllowAll() {
        assertThat(check(ALLOW_ALL, true, "cat agent.d?").verdict()).isEqualTo(ASK);
        assertThat(check(ALLOW_ALL, true, "cat ../*.db").verdict()).isEqualTo(ASK);
        assertThat(check(ALLOW_ALL, false, "cat $(ls | head -1)").verdict()).isEqualTo(DENY);
        assertThat(check(ALLOW_ALL, true, "cat *.txt notes/*.md").verdict()).isEqualTo(ALLOW);
        assertThat(check(ALLOW_ALL, true, "X=$(date); ls").verdict()).as("an assignment opens nothing").isEqualTo(ALLOW);
        Decision d = check(ALLOW_ALL, true, "cat $F");
        assertThat(d.reason()).isEqualTo("asking: \"cat $F\" has a word only known when it runs (a glob, $…, or names"
                + " from xargs/find) that could name agent.db, part of the control surface");
        assertThat(d.sessionPrefixes()).as("'always' cannot make it safe").isEmpty();
    }

    @Test
    void theReasonNamesThePartThatDecidedAndTheRule() {
        ShellRules rules = new ShellRules(List.of("rm"), List.of("git push"), List.of("ls", "git status"));

        assertThat(check(rules, true, "ls; rm -rf /").reason()).isEqualTo("denied: \"rm -rf /\" matches deny rule \"rm\"");
        assertThat(check(rules, true, "/bin/rm -r x").reason()).isEqualTo("denied: \"/bin/rm -r x\" matches deny rule \"rm\"");
        assertThat(check(rules, true, "git push").reason()).isEqualTo("asking: \"git push\" matches ask rule \"git push\"");
        assertThat(check(rules, false, "git push").reason())
                .isEqualTo("denied: \"git push\" matches ask rule \"git push\", and nobody can answer");
        assertThat(check(rules, true, "ls | make build").reason()).isEqualTo("asking: \"make build\" matches no allow rule");
        assertThat(check(rules, true, "npm a; npm b").reason())
                .isEqualTo("asking: \"npm a\" matches no allow rule (and 1 more part to ask about)");
        assertThat(check(rules, true, "ls -l | git status").reason())
                .isEqualTo("allowed: \"ls -l\" matches allow rule \"ls\"; \"git status\" matches allow rule \"git status\"");
        assertThat(check(rules, true, "ls 'a").reason()).isEqualTo("denied: cannot tell what it would run (unbalanced single quote)");
    }

    @Test
    void rulesAreCheckedDenyThenAskThenAllowFirstMatchWinning() {
        ShellRules overlapping = new ShellRules(List.of("git push --force"), List.of("git push"), List.of("git"));

        assertThat(check(overlapping, true, "git push --force origin").verdict()).isEqualTo(DENY);
        assertThat(check(overlapping, true, "git push origin").verdict()).isEqualTo(ASK);
        assertThat(check(overlapping, true, "git log").verdict()).isEqualTo(ALLOW);
        assertThat(check(new ShellRules(List.of("ls"), List.of(), List.of("*")), true, "ls").verdict()).isEqualTo(DENY);
    }

    @Test
    void rulesCompareWholeWordsNotCharacters() {
        ShellRules rules = new ShellRules(List.of(), List.of(), List.of("git status", "grep 'a b'"));

        assertThat(check(rules, false, "git status --short").verdict()).isEqualTo(ALLOW);
        assertThat(check(rules, false, "git statusx").verdict()).isEqualTo(DENY);
        assertThat(check(rules, false, "git").verdict()).isEqualTo(DENY);
        assertThat(check(rules, false, "grep 'a b' f").verdict()).as("a quoted rule word").isEqualTo(ALLOW);
        assertThat(check(rules, false, "grep a b f").verdict()).isEqualTo(DENY);
    }

    @Test
    void withNoRuleMatchingThePersonIsAskedOrTheLineIsDeniedWhenNobodyCanAnswer() {
        ShellRules none = new ShellRules(List.of(), List.of(), List.of());

        assertThat(check(none, true, "ls").verdict()).isEqualTo(ASK);
        assertThat(check(none, false, "ls").reason()).isEqualTo("denied: \"ls\" matches no allow rule, and nobody can answer");
    }

    @Test
    void inlineCodeIsAllowedOnlyByARuleNamingTheWholeCommand() {
        ShellRules rules = new ShellRules(List.of(), List.of(), List.of("python3", "python3 -c 'print(1)'"));

        assertThat(check(rules, false, "python3 -c 'print(1)'").verdict()).isEqualTo(ALLOW);
        assertThat(check(rules, false, "python3 -c 'print(2)'").verdict()).isEqualTo(DENY);
        assertThat(check(rules, false, "python3 script.py").verdict()).as("a script is not inline code").isEqualTo(ALLOW);
        assertThat(check(ALLOW_ALL, false, "python3 -c 'print(1)'").verdict()).as("* names nothing").isEqualTo(DENY);
        assertThat(check(new ShellRules(List.of("python3"), List.of(), List.of()), true, "python3 -c x").verdict())
                .as("deny rules match inline code by prefix").isEqualTo(DENY);
        assertThat(check(rules, true, "python3 -c 'import os; os.remove(1)'").reason())
                .isEqualTo("asking: \"python3 -c 'import os; os.remove(1)'\" runs inline code the policy cannot read;"
                        + " only an allow rule naming the whole command allows it");
    }

    @Test
    void alwaysAllowsThatPrefixForThisPolicyOnlyAndNeverOverridesDenyOrAsk() {
        ShellPolicy policy = new ShellPolicy(RULES, surface, true);

        Decision first = policy.check("npm test -- --watch && ls", dir);
        assertThat(first.verdict()).isEqualTo(ASK);
        assertThat(first.sessionPrefixes()).containsExactly("npm test");
        first.sessionPrefixes().forEach(policy::allowForSession);

        assertThat(policy.check("npm test", dir).verdict()).isEqualTo(ALLOW);
        assertThat(policy.check("npm publish", dir).verdict()).isEqualTo(ASK);
        assertThat(policy.sessionAllows()).containsExactly("npm test");
        assertThat(new ShellPolicy(RULES, surface, true).check("npm test", dir).verdict())
                .as("another policy (the next session) does not remember").isEqualTo(ASK);

        policy.allowForSession("rm");
        policy.allowForSession("git push");
        assertThat(policy.check("rm x", dir).verdict()).isEqualTo(DENY);
        assertThat(policy.check("git push", dir).verdict()).isEqualTo(ASK);
        assertThat(policy.check("git push", dir).sessionPrefixes()).isEmpty();
        assertThatThrownBy(() -> policy.allowForSession("*")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> policy.allowForSession(" ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theSuggestedPrefixForInlineCodeIsTheWholeCommandAndWorks() {
        ShellPolicy policy = new ShellPolicy(RULES, surface, true);

        Decision d = policy.check("python3 -c 'print(1)'", dir);
        assertThat(d.sessionPrefixes()).containsExactly("python3 -c 'print(1)'");
        policy.allowForSession(d.sessionPrefixes().get(0));

        assertThat(policy.check("python3 -c 'print(1)'", dir).verdict()).isEqualTo(ALLOW);
        assertThat(policy.check("python3 -c 'print(2)'", dir).verdict()).isEqualTo(ASK);
    }
}
