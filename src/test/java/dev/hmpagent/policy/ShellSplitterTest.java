package dev.hmpagent.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The splitter on plain strings: what a line would run, word by word, and what it refuses to guess. */
class ShellSplitterTest {
    private final ShellSplitter splitter = new ShellSplitter();

    /** Each simple command's assignments and words joined by " | " between words, e.g. "grep | a;b | f". */
    private List<String> parts(String line) {
        ShellSplit split = splitter.split(line);
        assertThat(split.error()).as("error for " + line).isEmpty();
        return split.commands().stream()
                .map(c -> String.join(" | ", Stream.concat(c.assignments().stream(), c.words().stream()).toList()))
                .toList();
    }

    private String failure(String line) {
        ShellSplit split = splitter.split(line);
        assertThat(split.ok()).as("split of " + line + " should fail, got " + split.commands()).isFalse();
        assertThat(split.commands()).isEmpty();
        assertThat(split.error()).doesNotContain("\n");
        return split.error();
    }

    static Stream<Arguments> lines() {
        return Stream.of(
                Arguments.of("ls -la", List.of("ls | -la")),
                Arguments.of("grep 'a;b' f", List.of("grep | a;b | f")),
                Arguments.of("ls \"my dir\"", List.of("ls | my dir")),
                Arguments.of("ls my\\ dir", List.of("ls | my dir")),
                Arguments.of("rm -rf x; ls", List.of("rm | -rf | x", "ls")),
                Arguments.of("ls && rm x || echo no", List.of("ls", "rm | x", "echo | no")),
                Arguments.of("ls | sh", List.of("ls", "sh")),
                Arguments.of("ls |& cat & wc", List.of("ls", "cat", "wc")),
                Arguments.of("ls\nrm x", List.of("ls", "rm | x")),
                Arguments.of("echo $(rm x)", List.of("rm | x", "echo | $(rm x)")),
                Arguments.of("echo \"$(rm x)\"", List.of("rm | x", "echo | $(rm x)")),
                Arguments.of("echo `rm x`", List.of("rm | x", "echo | `rm x`")),
                Arguments.of("echo \"`rm \\\"x\\\"`\"", List.of("rm | x", "echo | `rm \\\"x\\\"`")),
                Arguments.of("diff <(rm x) >(ls) y", List.of("rm | x", "ls", "diff | <(rm x) | >(ls) | y")),
                Arguments.of("env X=1 rm x", List.of("X=1 | rm | x")),
                Arguments.of("env -i X=1 Y=2 rm x", List.of("X=1 | Y=2 | rm | x")),
                Arguments.of("/usr/bin/env rm x", List.of("rm | x")),
                Arguments.of("env", List.of("env")),
                Arguments.of("X=1 rm", List.of("X=1 | rm")),
                Arguments.of("X=1", List.of("X=1")),
                Arguments.of("'X=1' rm", List.of("X=1 | rm")),
                Arguments.of("sh -c 'rm x'", List.of("sh | -c | rm x", "rm | x")),
                Arguments.of("bash -c \"ls; rm x\"", List.of("bash | -c | ls; rm x", "ls", "rm | x")),
                Arguments.of("bash -lc 'rm x' arg0", List.of("bash | -lc | rm x | arg0", "rm | x")),
                Arguments.of("sh -o errexit -c 'rm x'", List.of("sh | -o | errexit | -c | rm x", "rm | x")),
                Arguments.of("zsh -c 'sh -c \"rm x\"'",
                        List.of("zsh | -c | sh -c \"rm x\"", "sh | -c | rm x", "rm | x")),
                Arguments.of("dash script.sh", List.of("dash | script.sh")),
                Arguments.of("/bin/rm x", List.of("/bin/rm | x")),
                Arguments.of("'r''m' x", List.of("rm | x")),
                Arguments.of("\"rm\" x", List.of("rm | x")),
                Arguments.of("r\\m x", List.of("rm | x")),
                Arguments.of("\\rm x", List.of("rm | x")),
                Arguments.of("$'\\x72m' x", List.of("rm | x")),
                Arguments.of("find . -exec rm {} \\;", List.of("find | . | -exec | ;", "rm | {}")),
                Arguments.of("find . -name '*.txt' -execdir rm -f {} + -print",
                        List.of("find | . | -name | *.txt | -execdir | + | -print", "rm | -f | {}")),
                Arguments.of("xargs rm", List.of("xargs", "rm")),
                Arguments.of("ls | xargs -0 -n1 -I{} rm {}", List.of("ls", "xargs | -0 | -n1 | -I{}", "rm | {}")),
                Arguments.of("xargs", List.of("xargs", "echo")),
                Arguments.of("nohup rm x &", List.of("rm | x")),
                Arguments.of("timeout -s KILL 5 rm x", List.of("rm | x")),
                Arguments.of("timeout 5", List.of("timeout | 5")),
                Arguments.of("nice -n 5 rm x", List.of("rm | x")),
                Arguments.of("nice -5 rm x", List.of("rm | x")),
                Arguments.of("sudo -u root rm x", List.of("sudo | -u | root", "rm | x")),
                Arguments.of("command rm x", List.of("rm | x")),
                Arguments.of("command -v rm", List.of("command | -v | rm")),
                Arguments.of("exec rm x", List.of("rm | x")),
                Arguments.of("time -p rm x", List.of("rm | x")),
                Arguments.of("stdbuf -oL rm x", List.of("rm | x")),
                Arguments.of("setsid -f rm x", List.of("setsid | -f", "rm | x")),
                Arguments.of("busybox rm x", List.of("busybox", "rm | x")),
                Arguments.of("env X=1 nohup timeout 5 sudo rm x", List.of("X=1 | sudo", "X=1 | rm | x")),
                Arguments.of("git -c core.pager=rm log", List.of("git | -c | core.pager=rm | log")),
                Arguments.of("(cd x && rm y) > out", List.of("cd | x", "rm | y", "")),
                Arguments.of("{ ls; rm x; }", List.of("ls", "rm | x")),
                Arguments.of("if ls; then rm x; else echo; fi", List.of("ls", "rm | x", "echo")),
                Arguments.of("while true; do rm x; done", List.of("true", "rm | x")),
                Arguments.of("for f in a *.txt; do rm \"$f\"; done", List.of("f=a | f=*.txt", "rm | $f")),
                Arguments.of("! ls", List.of("ls")),
                Arguments.of("ls # ; rm x", List.of("ls")),
                Arguments.of("ls a#b", List.of("ls | a#b")),
                Arguments.of("echo ${HOME} ${#x} ${y:-z}", List.of("echo | ${HOME} | ${#x} | ${y:-z}")),
                Arguments.of("ls 2>&1 >/dev/null", List.of("ls")),
                Arguments.of("[ -f x ] && echo y", List.of("[ | -f | x | ]", "echo | y")),
                Arguments.of("ls \\\n -la", List.of("ls | -la")),
                Arguments.of("", List.of()));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("lines")
    void splitsALineIntoTheSimpleCommandsItRuns(String line, List<String> expected) {
        assertThat(parts(line)).containsExactlyElementsOf(expected);
    }

    @Test
    void redirectionTargetsAreKeptApartFromTheWords() {
        ShellCommand c = splitter.split("cat < in.txt > 'out file' 2>> err &> both").commands().get(0);

        assertThat(c.words()).containsExactly("cat");
        assertThat(c.redirects()).containsExactly("in.txt", "out file", "err", "both");
    }

    @Test
    void globsAndExpansionsAreWildcardsWhileQuotedStarsAreNot() {
        ShellCommand c = splitter.split("cat *.db \"$X\" 'a*b' x?y --db=$D").commands().get(0);

        assertThat(c.words()).containsExactly("cat", "*.db", "$X", "a*b", "x?y", "--db=$D");
        assertThat(c.wildcards()).hasSize(4);
        assertThat("agent.db").matches(c.wildcards().get(0));
        assertThat("a*b").doesNotMatch(c.wildcards().get(0));
        assertThat(c.wildcards()).anySatisfy(w -> assertThat("agent.db").matches(w))
                .as("the value after = of --db=$D").contains(".*");
    }

    @Test
    void xargsAndFindExecHandTheirCommandFileNamesThatCouldBeAnything() {
        ShellCommand viaXargs = splitter.split("xargs cat").commands().get(1);
        ShellCommand viaFind = splitter.split("find . -exec cat {} \\;").commands().get(1);

        assertThat(viaXargs.wildcards()).contains(".*");
        assertThat(viaFind.wildcards()).contains(".*");
    }

    @Test
    void interpretersGivenInlineCodeAreOpaqueAndScriptsAreNot() {
        for (String line : List.of("python -c 'import os'", "python3 -Ic 'x'", "perl -e 'unlink 1'", "perl -ne 'x'",
                "ruby -e 'x'", "node -e 'x'", "node --eval=x", "php -r 'x'", "awk 'BEGIN{system(\"rm x\")}'",
                "awk -f prog.awk", "git -c core.pager=rm log", "git -c alias.x=!rm x", "git --exec-path=/tmp log",
                "env X=1 python3 -c 'x'")) {
            assertThat(splitter.split(line).commands()).as(line).anySatisfy(c -> assertThat(c.opaque()).isTrue());
        }
        for (String line : List.of("python3 script.py", "python -m http.server", "perl script.pl",
                "awk '{print $1}' f", "git log -c", "git status", "node app.js")) {
            assertThat(splitter.split(line).commands()).as(line).allSatisfy(c -> assertThat(c.opaque()).isFalse());
        }
    }

    @Test
    void whatCannotBeFollowedIsAFailureWithAOneLineReason() {
        assertThat(failure("echo 'unbalanced")).isEqualTo("unbalanced single quote");
        assertThat(failure("echo \"unbalanced")).isEqualTo("unbalanced double quote");
        assertThat(failure("echo `ls")).isEqualTo("unbalanced backquote");
        assertThat(failure("echo $(ls")).contains("unbalanced parenthesis");
        assertThat(failure("ls )")).contains("unbalanced parenthesis");
        assertThat(failure("cat <<EOF\nrm x\nEOF")).contains("here-documents");
        assertThat(failure("cat <<< 'x'")).contains("here-strings");
        assertThat(failure("eval 'rm x'")).isEqualTo("'eval' runs text the policy cannot read");
        assertThat(failure("source ./x.sh")).contains("'source'");
        assertThat(failure(". ./x.sh")).contains("'.'");
        assertThat(failure("trap 'rm x' EXIT")).contains("'trap'");
        assertThat(failure("exec 3<agent.db")).contains("file descriptor 3");
        assertThat(failure("exec > out")).contains("exec with redirections");
        assertThat(failure("$X x")).isEqualTo("the command name $X is only known when the shell runs");
        assertThat(failure("$(echo rm) x")).contains("only known when the shell runs");
        assertThat(failure("`echo rm` x")).contains("only known when the shell runs");
        assertThat(failure("${X} x")).contains("only known when the shell runs");
        assertThat(failure("/bin/r? x")).contains("only known when the shell runs");
        assertThat(failure("echo ${X:-$(rm x)}")).contains("is not supported");
        assertThat(failure("echo ${!X}")).contains("is not supported");
        assertThat(failure("{rm,-rf,x}")).contains("brace expansion");
        assertThat(failure("echo {1..3}")).contains("brace expansion");
        assertThat(failure("echo $((1+2))")).contains("arithmetic");
        assertThat(failure("case x in x) rm y;; esac")).contains("case");
        assertThat(failure("f() { rm x; }; f")).contains("function");
        assertThat(failure("function f { rm x; }")).contains("function");
        assertThat(failure("[[ -f x && y ]]")).contains("[[");
        assertThat(failure("env -S 'rm x'")).contains("env -S");
        assertThat(failure("xargs -Q rm")).contains("unknown option -Q of xargs");
        assertThat(failure("sh -c \"$S\"")).contains("only known when the shell runs");
        assertThat(failure("find . -exec rm {}")).contains("needs a command ended by");
        assertThat(failure("sh -c 'eval x'")).contains("'eval'");
        assertThat(failure("echo $(eval x)")).contains("'eval'");
    }

    @Test
    void nestingIsBoundedInsteadOfOverflowingTheStack() {
        String deep = "echo " + "$(echo ".repeat(40) + "x" + ")".repeat(40);

        assertThat(failure(deep)).contains("nested");
        assertThat(failure("( ".repeat(100_000))).contains("nested");
    }

    @Test
    void theTextOfAPartQuotesWhatNeedsQuoting() {
        ShellCommand c = splitter.split("X=1 grep 'a;b' \"my dir\" > out").commands().get(0);

        assertThat(c.text()).isEqualTo("X=1 grep 'a;b' 'my dir' > out");
        assertThat(c.program()).isEqualTo("grep");
        assertThat(splitter.split("/usr/local/bin/agent halt").commands().get(0).programName()).isEqualTo("agent");
    }
}
