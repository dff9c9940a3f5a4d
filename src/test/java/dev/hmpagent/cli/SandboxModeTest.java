package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.runtime.Confinements;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.Store;
import dev.hmpagent.testing.Bwrap;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** `agent check` says which sandbox mode is in force and why; a layout the sandbox cannot make safe is refused. */
@Timeout(60)
class SandboxModeTest {
    @TempDir Path dir;
    Path db;
    StringWriter out;
    StringWriter err;

    @BeforeEach
    void file() {
        db = dir.resolve("agent.db");
        Store.open(db, Clock.systemUTC()).close();
    }

    int agent(String path, String toml, String... args) throws Exception {
        Files.writeString(dir.resolve("agent.toml"), "[llm]\nmodel = \"m\"\n" + toml);
        out = new StringWriter();
        err = new StringWriter();
        Launch launch = new Launch(Map.of("HOME", dir.resolve("home").toString(), "PATH", path),
                () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                Clock.systemUTC(), false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of("--config", dir.resolve("agent.toml").toString(), "--db", db.toString()));
        all.addAll(List.of(args));
        return cl.execute(all.toArray(String[]::new));
    }

    static String systemPath() {
        return System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    }

    @Test
    void check_names_the_sandbox_in_force_and_what_it_confines() throws Exception {
        Bwrap.required();

        assertThat(agent(systemPath(), "", "check")).isZero();

        assertThat(out.toString()).startsWith("sandbox: bubblewrap ").contains("only the file roots (read-write)")
                .contains("no network").contains("files up to 64 MiB").contains("agent.db: ok");
    }

    @Test
    void check_says_why_there_is_no_sandbox_and_what_to_install() throws Exception {
        assertThat(agent("/nonexistent", "", "check")).isZero();

        assertThat(out.toString().lines().findFirst().orElseThrow()).isEqualTo("no sandbox: bwrap not found on PATH:"
                + " apt-get install bubblewrap (dnf install bubblewrap on Fedora); " + Confinements.FALLBACK_RULES
                + (dev.hmpagent.process.SandboxProbe.runningAsRoot() ? Confinements.AS_ROOT : ""));
        assertThat(Confinements.FALLBACK_RULES).contains("an unlock cannot be proven to come from a person");
    }

    @Test
    void check_after_the_sandbox_broke_under_a_running_agent_says_what_failed_and_why() throws Exception {
        try (Bwrap.Breakable bwrap = Bwrap.breakable()) {
            bwrap.breakIt();

            assertThat(agent(bwrap.path(), "", "check")).isZero();

            assertThat(out.toString().lines().findFirst().orElseThrow()).startsWith("no sandbox: bwrap cannot make a"
                    + " sandbox").contains("(" + Bwrap.BROKEN + "); unprivileged user namespaces may be off");
        }
    }

    @Test
    void check_says_the_sandbox_is_off_when_a_person_turned_it_off() throws Exception {
        assertThat(agent(systemPath(), "[sandbox]\nmode = \"off\"\n", "check")).isZero();

        assertThat(out.toString()).startsWith("no sandbox: sandbox.mode is off; shell and script_run run with your"
                + " user's rights");
        assertThat(out.toString().lines().findFirst().orElseThrow()).as("said plainly, on the line of the mode")
                .endsWith("and an unlock cannot be proven to come from a person"
                        + (dev.hmpagent.process.SandboxProbe.runningAsRoot() ? Confinements.AS_ROOT : ""));
    }

    @Test
    void check_without_the_sandbox_names_the_dropped_default_rules_and_a_persons_rules_that_run_programs()
            throws Exception {
        assertThat(agent(systemPath(), "[sandbox]\nmode = \"off\"\n", "check")).isZero();
        assertThat(out.toString()).contains("no sandbox: the default allow rules git status, git log, git diff are"
                + " dropped").doesNotContain("your allow rules");

        assertThat(agent(systemPath(), "[sandbox]\nmode = \"off\"\n[policy]\nshell_allow = [\"ls\", \"make\"]\n",
                "check")).isZero();
        assertThat(out.toString()).contains("no sandbox: your allow rules make name programs that can run other"
                + " programs").doesNotContain("default allow rules");
    }

    @Test
    void check_says_shell_is_refused_when_the_sandbox_is_required_and_missing() throws Exception {
        assertThat(agent("/nonexistent", "[sandbox]\nmode = \"required\"\n", "check")).isZero();

        assertThat(out.toString()).startsWith("no sandbox: sandbox.mode is required and bwrap not found on PATH")
                .contains("shell and script_run are refused");
    }

    @Test
    void a_root_that_holds_the_database_is_refused_with_one_line_and_exit_3() throws Exception {
        Bwrap.required();
        String roots = "[files]\nroots = [\"" + dir + "\"]\n";

        assertThat(agent(systemPath(), roots, "check")).isEqualTo(ExitCodes.CONFIG);
        assertThat(out.toString()).contains("lies inside the file root " + dir.toRealPath());

        int run = agent(systemPath(), roots, "run", "--max-ticks", "1");
        assertThat(run).isEqualTo(ExitCodes.CONFIG);
        assertThat(err.toString().strip()).doesNotContain("\n").contains("agent.db").contains("files.roots")
                .contains("sandbox.mode = \"off\"");
        assertThat(dir.resolve("agent.db.halt")).as("nothing created on the host").doesNotExist();
    }

    @Test
    void the_same_layout_starts_when_a_person_turned_the_sandbox_off() throws Exception {
        String roots = "[files]\nroots = [\"" + dir + "\"]\n[sandbox]\nmode = \"off\"\n";

        assertThat(agent(systemPath(), roots, "--base-url", "http://127.0.0.1:9/v1", "run", "--max-ticks", "1"))
                .isZero();
        assertThat(out.toString()).contains("no sandbox: sandbox.mode is off");
    }
}
