package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.store.StoreException.Kind;
import dev.hmpagent.testing.MutableClock;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file whose pages are damaged is found out at open or at the first statement that reads them. */
class StoreIntegrityTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");

    @Test
    void a_file_with_a_damaged_page_is_refused_at_open_and_told_to_run_agent_check() throws Exception {
        Path db = damagedFile();
        assertThatThrownBy(() -> Store.open(db, clock)).isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.CORRUPT);
            assertThat(e.writeFailure()).isFalse();
            assertThat(e.getMessage()).doesNotContain("\n").contains(db + " is damaged (")
                    .endsWith("stop the agent and run `agent check --db " + db + "`");
        });
    }

    @Test
    void damage_the_open_did_not_look_for_is_kind_corrupt_at_the_first_statement_that_reads_it() throws Exception {
        Path db = damagedFile();
        try (Store store = Store.open(db, clock, OpenOptions.DEFAULT.withQuickCheckMaxBytes(0))) {
            assertThatThrownBy(() -> store.queryLong("SELECT sum(length(text)) FROM notes"))
                    .isInstanceOfSatisfying(StoreException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Kind.CORRUPT);
                        assertThat(e.getMessage()).doesNotContain("\n").contains("is damaged").contains("agent check --db");
                    });
        }
    }

    @Test
    void the_integrity_check_lists_what_is_wrong_with_a_damaged_file() throws Exception {
        Path db = damagedFile();
        IntegrityReport report = Store.checkIntegrity(db);
        assertThat(report.ok()).isFalse();
        assertThat(report.problems()).isNotEmpty().hasSizeLessThanOrEqualTo(IntegrityReport.MAX_PROBLEMS)
                .allSatisfy(line -> assertThat(line).isNotBlank().doesNotContain("\n").doesNotContain("*** in database"));
    }

    @Test
    void a_clean_file_checks_ok_both_ways() {
        Path db = dir.resolve("agent.db");
        try (Store store = Store.open(db, clock)) {
            fill(store);
            assertThat(store.checkIntegrity()).isEqualTo(new IntegrityReport(true, java.util.List.of(), false));
        }
        assertThat(Store.checkIntegrity(db).ok()).isTrue();
    }

    @Test
    void checking_a_file_that_is_not_sqlite_reports_it_instead_of_throwing() throws Exception {
        Path junk = dir.resolve("junk.db");
        Files.writeString(junk, "plain text, long enough to look like a header to nobody ".repeat(40));
        IntegrityReport report = Store.checkIntegrity(junk);
        assertThat(report.ok()).isFalse();
        assertThat(report.problems()).singleElement().asString().contains("not a database");
    }

    @Test
    void checking_a_missing_file_fails_without_creating_it() {
        Path missing = dir.resolve("missing.db");
        assertThatThrownBy(() -> Store.checkIntegrity(missing)).isInstanceOf(StoreException.class)
                .hasMessageContaining("missing.db").hasMessageContaining("does not exist");
        assertThat(missing).doesNotExist();
    }

    /** A few hundred notes, then 256 random bytes written over the middle of one of their leaf pages. */
    private Path damagedFile() throws Exception {
        Path db = dir.resolve("agent.db");
        long page;
        long pageSize;
        try (Store store = Store.open(db, clock)) {
            fill(store);
            java.util.List<Long> leaves = store.query(
                    "SELECT pageno FROM dbstat WHERE name = 'notes' AND pagetype = 'leaf' ORDER BY pageno", rs -> rs.getLong(1));
            assertThat(leaves).hasSizeGreaterThan(10);
            page = leaves.get(leaves.size() / 2);
            pageSize = store.queryLong("PRAGMA page_size");
        }
        assertThat(Path.of(db + "-wal")).doesNotExist(); // the last close checkpointed everything into the file
        byte[] junk = new byte[256];
        new Random(7).nextBytes(junk);
        try (FileChannel ch = FileChannel.open(db, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(junk), (page - 1) * pageSize + pageSize / 2);
        }
        return db;
    }

    private static void fill(Store store) {
        NotesDao notes = new NotesDao(store);
        store.inTransaction(() -> {
            for (int i = 0; i < 400; i++) notes.add("note " + i + " " + "lorem ipsum ".repeat(10), "user", 0, null);
        });
    }
}
