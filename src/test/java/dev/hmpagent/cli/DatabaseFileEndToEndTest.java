package dev.hmpagent.cli;

import dev.hmpagent.runtime.LlmChain;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.runtime.Wiring;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The agent's file deleted or replaced under a running agent (issue 20, item 3), another program's SQLite file
 * given as --db (item 6), and `agent note` on a full disk (item 7).
 */
@Timeout(60)
class DatabaseFileEndToEndTest {
    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path db;
    Path config;
    final Map<String, Runnable> signals = new ConcurrentHashMap<>();

    @BeforeEach
    void start() throws Exception {
        llm = new FakeOpenAiServer();
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n");
        Store.open(db, Clock.systemUTC()).close();
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    record Run(int code, String out, String err) { }

    Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Launch launch = new Launch(Map.of("HOME", dir.toString()),
                () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                Clock.systemUTC(), false, dev.hmpagent.runtime.LlmChain::client, signals::put);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl()));
        return new Run(cl.execute(all.toArray(String[]::new)), out.toString(), err.toString());
    }

    long count(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    @Test
    void deleting_the_file_under_a_running_agent_stops_it_with_exit_5_and_one_line_and_a_later_note_reaches_the_next_start()
            throws Exception {
        CompletableFuture<Run> run = CompletableFuture.supplyAsync(() -> cli("run", "--hz", "20"));
        awaitRunnerPublished();

        for (String suffix : List.of("", "-wal", "-shm")) Files.deleteIfExists(dir.resolve("agent.db" + suffix));
        long deleted = System.nanoTime();
        Run done = run.get(20, TimeUnit.SECONDS);

        assertThat(done.code()).as(done.out() + done.err()).isEqualTo(ExitCodes.DATABASE);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - deleted))
                .as("noticed on the heartbeat's second (with slack for a loaded machine)").isLessThan(10_000);
        assertThat(done.out().lines().filter(l -> l.contains("was deleted"))).singleElement()
                .satisfies(l -> assertThat(l).contains(db.toString()).contains("Start it again"));
        assertThat(Files.exists(db)).as("the stopping agent wrote nothing at the path").isFalse();

        Run note = cli("note", "are you there?");
        assertThat(note.code()).isZero();
        assertThat(note.out()).contains("a new file").contains("the next agent started on it reads the note");
        llm.streamed(RunEndToEndTest.SAY_HI, 10, 5);
        Run next = cli("run", "--until-idle");
        assertThat(next.code()).as(next.out() + next.err()).isZero();
        assertThat(llm.take().user()).contains("are you there?");
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'are you there?' AND read = 1")).isEqualTo(1);
    }

    @Test
    void replacing_the_file_under_a_running_agent_stops_it_with_exit_5() throws Exception {
        Path other = dir.resolve("other.db");
        Store.open(other, Clock.systemUTC()).close();
        CompletableFuture<Run> run = CompletableFuture.supplyAsync(() -> cli("run", "--hz", "20"));
        awaitRunnerPublished();

        Files.move(other, db, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Run done = run.get(20, TimeUnit.SECONDS);

        assertThat(done.code()).as(done.out() + done.err()).isEqualTo(ExitCodes.DATABASE);
        assertThat(done.out()).contains("was replaced by another file");
        assertThat(count("SELECT count(*) FROM runner_lock")).as("the new file was never the running agent's").isZero();
    }

    @Test
    void another_programs_sqlite_file_is_refused_with_exit_5_by_status_note_and_run_and_left_byte_for_byte_as_it_was()
            throws Exception {
        Files.delete(db);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.createStatement().execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)");
            c.createStatement().execute("CREATE TABLE schema_version (version INTEGER)");
            c.createStatement().execute("INSERT INTO customers(name) VALUES ('Ada')");
        }
        byte[] before = Files.readAllBytes(db);

        for (String[] args : List.of(new String[] {"status"}, new String[] {"note", "hello"},
                new String[] {"run", "--hz", "20", "--max-ticks", "1"})) {
            Run run = cli(args);
            assertThat(run.code()).as(String.join(" ", args) + ": " + run.out() + run.err()).isEqualTo(ExitCodes.DATABASE);
            assertThat(run.err().strip()).as(args[0]).doesNotContain("\n").contains("another program's SQLite file")
                    .contains("customers").doesNotContain("Exception");
            assertThat(Files.readAllBytes(db)).as(args[0] + " left the file as it was").isEqualTo(before);
        }
        assertThat(dir.resolve("agent.db-wal")).doesNotExist();
        assertThat(dir.resolve("agent.db.inbox")).as("the note was not kept for a file that is not an agent's")
                .doesNotExist();
    }

    @Test
    void a_file_marked_with_another_programs_application_id_is_refused_even_when_it_has_our_tables() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.createStatement().execute("PRAGMA application_id = " + 0x464f5352);   // "FOSR"
        }
        byte[] before = Files.readAllBytes(db);
        Run note = cli("note", "hello");
        assertThat(note.code()).isEqualTo(ExitCodes.DATABASE);
        assertThat(note.err()).contains("application_id 0x464f5352");
        assertThat(Files.readAllBytes(db)).isEqualTo(before);
    }

    @Test
    void a_file_made_before_the_application_id_is_recognised_by_its_tables() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.createStatement().execute("PRAGMA application_id = 0");
        }
        assertThat(cli("note", "still mine").code()).isZero();
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'still mine'")).isEqualTo(1);
    }

    @Test
    void a_note_on_a_full_disk_exits_5_with_plain_words_saying_it_was_not_kept() throws Exception {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(full), "needs /dev/full (Linux) to fake a full disk");
        // every write to the file's WAL and to the note spool beside it fails with ENOSPC, as on a full disk
        Files.createSymbolicLink(dir.resolve("agent.db-wal"), full);
        Files.createSymbolicLink(dir.resolve("agent.db.inbox"), full);

        Run note = cli("note", "are you there?");

        assertThat(note.code()).as(note.out() + note.err()).isEqualTo(ExitCodes.DATABASE);
        assertThat(note.err().strip()).doesNotContain("\n").doesNotContain("Exception").doesNotContain("java.")
                .contains("disk is full").contains("not kept").contains("free some space");
    }

    @Test
    void status_says_the_file_was_deleted_while_a_process_still_holds_it() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs Linux /proc");
        try (java.nio.channels.FileChannel held = java.nio.channels.FileChannel.open(db)) {
            Files.delete(db);
            Run status = cli("status");
            assertThat(status.code()).isEqualTo(ExitCodes.DATABASE);
            assertThat(status.err()).contains("deleted or replaced while pid " + ProcessHandle.current().pid());

            Store.open(db, Clock.systemUTC()).close();   // what `agent note` does on a missing file
            Run again = cli("status");
            assertThat(again.out()).contains("runner: none in this file; the file was deleted or replaced while pid");
        }
    }

    /** Waits (bounded) until the running agent has published its figures once. */
    void awaitRunnerPublished() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            Run status = cli("status", "--json");
            JsonNode s = new ObjectMapper().readTree(status.out());
            if (s.path("runner").has("published_age_s")) return;
            if (System.nanoTime() > deadline) throw new AssertionError("status never saw the runner: " + status.out());
            Thread.sleep(50);   // polling another process's view of the file, not waiting for our own thread
        }
    }
}
