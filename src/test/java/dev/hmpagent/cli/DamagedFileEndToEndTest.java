package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.DamagedFiles;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** A damaged database file: refused at start with one line and exit 5, and examined by `agent check`. */
@Timeout(60)
class DamagedFileEndToEndTest {
    @TempDir Path dir;
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final ByteArrayOutputStream terminal = new ByteArrayOutputStream();

    int agent(String... args) {
        Launch launch = new Launch(Map.of("HOME", dir.toString()),
                () -> new DumbTerminal(new ByteArrayInputStream("hello\n".getBytes(StandardCharsets.UTF_8)), terminal),
                Clock.systemUTC(), false, section -> {
                    throw new AssertionError("no LLM may be reached with a damaged file");
                });
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of("--db", dir.resolve("agent.db").toString()));
        all.addAll(List.of(args));
        return cl.execute(all.toArray(String[]::new));
    }

    Path filledFile() {
        Path db = dir.resolve("agent.db");
        try (Store store = Store.open(db, Clock.systemUTC())) {
            NotesDao notes = new NotesDao(store);
            store.inTransaction(() -> {
                for (int i = 0; i < 400; i++) notes.add("note " + i + " " + "lorem ipsum ".repeat(10), "user", 0, null);
            });
        }
        return db;
    }

    @Test
    void a_damaged_file_is_refused_at_start_with_one_line_naming_agent_check_and_exit_5() throws Exception {
        DamagedFiles.damageNotes(filledFile());

        int code = agent();

        assertThat(code).isEqualTo(ExitCodes.DATABASE);
        assertThat(err.toString().strip()).doesNotContain("\n").contains("damaged").contains("agent check");
        assertThat(err.toString()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void agent_check_lists_the_damage_and_the_way_back_and_exits_5() throws Exception {
        Path db = filledFile();
        DamagedFiles.damageNotes(db);
        long size = Files.size(db);

        int code = agent("check");

        assertThat(code).isEqualTo(ExitCodes.DATABASE);
        assertThat(out.toString()).contains(db + " is damaged").contains(".recover").contains("agent check --db")
                .contains(db + ".recovered");
        assertThat(Files.size(db)).as("check writes nothing").isEqualTo(size);
    }

    @Test
    void agent_check_on_a_sound_file_says_ok_and_exits_0() {
        filledFile();
        assertThat(agent("check")).isZero();
        assertThat(out.toString()).contains("agent.db: ok");
    }

    @Test
    void agent_check_on_a_missing_file_says_it_is_made_at_first_start_exits_0_and_creates_nothing() {
        assertThat(agent("check")).isEqualTo(ExitCodes.OK);
        assertThat(out.toString()).contains("agent.db: not there yet: made at first start");
        assertThat(err.toString()).doesNotContain("does not exist");
        assertThat(dir.resolve("agent.db")).doesNotExist();
    }
}
