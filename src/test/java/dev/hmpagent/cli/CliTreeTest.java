package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command tree main builds for its arguments, and the library set-up that waits until a command runs. */
class CliTreeTest {
    @TempDir Path dir;

    @Test
    void a_bare_version_builds_no_subcommand() {
        assertThat(Cli.needed("--version")).isEmpty();
        assertThat(Cli.needed("-V")).isEmpty();
        assertThat(tree("--version").getSubcommands()).isEmpty();
    }

    @Test
    void a_named_subcommand_is_built_alone_and_every_name_among_the_arguments_with_it() {
        assertThat(Cli.needed("note", "hello")).containsExactly("note");
        assertThat(Cli.needed("note", "--help")).containsExactly("note");
        assertThat(Cli.needed("log", "--version")).containsExactly("log");
        // "run" is --model's value here; the one that runs is note, whichever it is, both are there
        assertThat(Cli.needed("--model", "run", "note", "x")).containsExactlyInAnyOrder("run", "note");
        assertThat(tree("--db", "a.db", "note", "hi").getSubcommands()).containsOnlyKeys("note");
    }

    @Test
    void the_whole_tree_for_the_root_help_completion_the_repl_and_a_mistyped_subcommand() {
        for (String[] args : new String[][] {{"--help"}, {"-h", "note"}, {"completion", "bash"}, {}, {"--db", "a.db"},
                {"nte", "hi"}, {"--version", "--db", "a.db"}}) {
            assertThat(Cli.needed(args)).as(String.join(" ", args)).containsExactlyInAnyOrderElementsOf(Cli.SUBCOMMANDS);
        }
        assertThat(tree("--help").getSubcommands()).containsOnlyKeys(Cli.SUBCOMMANDS);
    }

    @Test
    void a_mistyped_subcommand_still_gets_its_did_you_mean() {
        CliRun run = CliRun.agent("nte", "hi");
        assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("unknown command 'nte'").contains("did you mean note");
    }

    @Test
    void the_set_up_runs_before_a_command_and_never_for_version_or_help() {
        AtomicInteger setUps = new AtomicInteger();
        assertThat(run(setUps, "--version")).isZero();
        assertThat(run(setUps, "--help")).isZero();
        assertThat(run(setUps, "note", "--help")).isZero();
        assertThat(setUps).as("version and help print from picocli's model alone").hasValue(0);

        assertThat(run(setUps, "--db", dir.resolve("agent.db").toString(), "note", "hello")).isZero();
        assertThat(setUps).as("once, before the note is stored").hasValue(1);
    }

    private CommandLine tree(String... args) {
        return Cli.commandLine(launch(), args);
    }

    private int run(AtomicInteger setUps, String... args) {
        CommandLine cl = Cli.commandLine(launch(), args);
        cl.setOut(new PrintWriter(new StringWriter(), true));
        cl.setErr(new PrintWriter(new StringWriter(), true));
        Cli.setUpBeforeRunning(cl, setUps::incrementAndGet);
        return cl.execute(args);
    }

    private Launch launch() {
        return new Launch(Map.of("HOME", dir.toString()), () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]),
                new ByteArrayOutputStream()), Clock.systemUTC(), false);
    }
}
