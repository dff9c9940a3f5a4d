package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.store.Store;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The emergency stop needs only the database (issue 32): with the {@code agent.toml} of the folder broken, {@code
 * agent halt}, {@code note}, {@code status} and {@code unlock} still reach the agent's file, saying the config error
 * once as a warning; a command that runs the agent still refuses the broken config (exit 3).
 */
class BrokenConfigControlTest {
    @TempDir Path dir;
    Path db;

    record Run(int code, String out, String err) { }

    @BeforeEach
    void setUp() throws Exception {
        db = dir.resolve("agent.db");
        Store.open(db, Clock.systemUTC()).close();
        Files.writeString(dir.resolve("agent.toml"), "[llm\nmodel = \"broken\n");
    }

    Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Launch launch = new Launch(Map.of("HOME", dir.toString()),
                () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                Clock.systemUTC(), false, dev.hmpagent.runtime.LlmChain::client).in(dir);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--config", dir.resolve("agent.toml").toString(), "--db", db.toString()));
        return new Run(cl.execute(all.toArray(String[]::new)), out.toString(), err.toString());
    }

    String text(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement()
                .executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    @Test
    void halt_note_status_and_unlock_work_with_a_broken_config_and_say_it_once_as_a_warning() throws Exception {
        Run note = cli("note", "are you there?");
        assertThat(note.code()).as(note.err()).isZero();
        assertThat(text("SELECT text FROM notes WHERE source = 'cli'")).isEqualTo("are you there?");

        Run halt = cli("halt", "--reason", "it misbehaves");
        assertThat(halt.code()).as(halt.err()).isZero();
        assertThat(halt.err()).containsOnlyOnce("agent: warning: ").contains("agent.toml")
                .contains("(ignored here: this command needs only the database; --db names it)");
        assertThat(text("SELECT state FROM safety_state")).isEqualTo("STOPPED");

        Run status = cli("status");
        assertThat(status.code()).as("stopped: exit 7").isEqualTo(7);
        assertThat(status.out()).contains("STOPPED");

        Run unlock = cli("unlock", "--reason", "fixed it");
        assertThat(unlock.code()).as(unlock.err()).isZero();
        assertThat(text("SELECT state FROM safety_state")).isEqualTo("ACTIVE");
    }

    @Test
    void a_command_that_runs_the_agent_still_refuses_the_broken_config() {
        Run run = cli("run", "--max-ticks", "1");
        assertThat(run.code()).isEqualTo(3);
        assertThat(run.err()).contains("agent.toml");
    }
}
