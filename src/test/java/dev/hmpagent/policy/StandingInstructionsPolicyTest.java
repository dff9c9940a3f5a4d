package dev.hmpagent.policy;

import static dev.hmpagent.policy.ShellPolicy.Verdict.ALLOW;
import static dev.hmpagent.policy.ShellPolicy.Verdict.ASK;
import static dev.hmpagent.policy.ShellPolicy.Verdict.DENY;
import static org.assertj.core.api.Assertions.assertThat;

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

/**
 * The person's standing instructions (AGENTS.md) in the shell and file policy: readable, but a command that may
 * write them is asked of a person whatever the allow rules say, and denied when nobody can answer.
 */
class StandingInstructionsPolicyTest {
    private static final ShellRules ALLOW_ALL = new ShellRules(List.of(), List.of(), List.of("*"));

    @TempDir
    Path dir;
    private Path agentsMd;
    private ControlSurface surface;

    @BeforeEach
    void files() throws IOException {
        agentsMd = Files.writeString(dir.resolve("AGENTS.md"), "Be brief.\n");
        Files.writeString(dir.resolve("notes.md"), "notes\n");
        surface = ControlSurface.forDatabase(dir.resolve("agent.db"), List.of()).askingBeforeWrites(List.of(agentsMd));
    }

    private Verdict check(boolean personPresent, String line) {
        return new ShellPolicy(ALLOW_ALL, surface, personPresent).check(line, dir).verdict();
    }

    /** Line; verdict with a person at the terminal; verdict with nobody to answer. */
    static Stream<Arguments> table() {
        return Stream.of(
                Arguments.of("cat AGENTS.md", ALLOW, ALLOW),
                Arguments.of("grep -n rule ./AGENTS.md | wc -l", ALLOW, ALLOW),
                Arguments.of("head -5 *.md", ALLOW, ALLOW),
                Arguments.of("echo notes > notes.md", ALLOW, ALLOW),
                Arguments.of("echo x >> AGENTS.md", ASK, DENY),
                Arguments.of("cat notes.md > ./AGENTS.md", ASK, DENY),
                Arguments.of("cp notes.md AGENTS.md", ASK, DENY),
                Arguments.of("tee agents.MD", ASK, DENY),
                Arguments.of("sed -i s/a/b/ AGENTS.md", ASK, DENY),
                Arguments.of("mv notes.md \"$(pwd)/AGENTS.md\"", ASK, DENY),
                Arguments.of("rm *.md", ASK, DENY),
                Arguments.of("ls | xargs touch", ASK, DENY));
    }

    @ParameterizedTest(name = "{0}: {1} with a person, {2} without")
    @MethodSource("table")
    void a_command_that_may_write_agents_md_is_asked_even_under_allow_all_and_reading_it_is_not(
            String line, Verdict withPerson, Verdict headless) {
        assertThat(check(true, line)).as(line).isEqualTo(withPerson);
        assertThat(check(false, line)).as(line).isEqualTo(headless);
    }

    @Test
    void a_link_to_agents_md_under_another_name_is_asked_about_too() throws IOException {
        Files.createSymbolicLink(dir.resolve("rules.txt"), agentsMd);
        Files.createLink(dir.resolve("hard.txt"), agentsMd);
        assertThat(check(true, "echo x > rules.txt")).isEqualTo(ASK);
        assertThat(check(true, "cp notes.md hard.txt")).isEqualTo(ASK);
        assertThat(new ShellPolicy(ALLOW_ALL, surface, true).check("cp notes.md hard.txt", dir).reason())
                .contains("may write " + agentsMd).contains("standing instructions");
    }

    @Test
    void a_file_write_to_agents_md_is_named_by_the_roots_and_one_to_another_file_is_not() throws IOException {
        FileRoots roots = new FileRoots(List.of(dir), surface, dir);
        Files.createSymbolicLink(dir.resolve("rules.txt"), agentsMd);
        assertThat(roots.askedBeforeWrite("AGENTS.md")).contains(agentsMd.toRealPath());
        assertThat(roots.askedBeforeWrite("sub/../rules.txt")).contains(agentsMd.toRealPath());
        assertThat(roots.askedBeforeWrite("notes.md")).isEmpty();
        assertThat(roots.openForRead("AGENTS.md", 1000).ok()).as("reading it stays allowed").isTrue();
    }

    @Test
    void without_asked_files_nothing_about_agents_md_is_asked() {
        ControlSurface plain = ControlSurface.forDatabase(dir.resolve("agent.db"), List.of());
        assertThat(new ShellPolicy(ALLOW_ALL, plain, true).check("echo x >> AGENTS.md", dir).verdict()).isEqualTo(ALLOW);
    }
}
