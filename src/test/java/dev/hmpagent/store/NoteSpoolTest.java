package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NoteSpoolTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-22T10:00:00Z");
    Path db;
    Store store;
    NoteSpool spool;

    @BeforeEach
    void open() {
        db = dir.resolve("agent.db");
        store = Store.open(db, clock, 50);   // a short busy wait: the lock below is held on purpose
        spool = new NoteSpool(store, new NotesDao(store));
    }

    @AfterEach
    void close() {
        store.close();
    }

    /** Another process's write transaction, held until closed. */
    Connection writeLock() throws Exception {
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        try (Statement st = c.createStatement()) {
            st.execute("BEGIN IMMEDIATE");
        }
        return c;
    }

    @Test
    void a_note_is_stored_at_once_when_the_file_takes_writes() {
        NoteSpool.Submitted s = spool.submit("hello", "user", 0, null);
        assertThat(s.stored()).isTrue();
        assertThat(new NotesDao(store).get(s.noteId())).map(NoteRow::text).contains("hello");
        assertThat(spool.waiting()).isZero();
    }

    @Test
    void notes_typed_while_another_process_holds_the_write_lock_wait_in_order_and_are_stored_once_it_is_free()
            throws Exception {
        try (Connection other = writeLock()) {
            NoteSpool.Submitted first = spool.submit("first", "user", 0, null);
            NoteSpool.Submitted second = spool.submit("second", "user", 2, "ops");
            assertThat(first.stored()).isFalse();
            assertThat(first.problem()).contains("stayed locked");
            assertThat(second.stored()).isFalse();
            assertThat(spool.waiting()).isEqualTo(2);
            assertThat(Files.readString(spool.file())).contains("\"first\"").contains("\"second\"");
        }
        assertThat(spool.flush()).isEqualTo(2);
        assertThat(new NotesDao(store).after(0, 10)).extracting(NoteRow::text, NoteRow::priority, NoteRow::tags)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("first", 0, null),
                        org.assertj.core.groups.Tuple.tuple("second", 2, "ops"));
        assertThat(spool.waiting()).isZero();
        assertThat(spool.flush()).as("nothing is stored twice").isZero();
    }

    @Test
    void an_emptied_spool_is_removed_and_a_later_note_makes_it_again() throws Exception {
        // before: agent note's spool stayed behind as a 0-byte agent.db.inbox for good once it had been used
        NoteSpool.spool(db, "kept while locked", "cli", 0, null);
        assertThat(spool.flush()).isEqualTo(1);
        assertThat(spool.file()).doesNotExist();

        NoteSpool.spool(db, "kept again", "cli", 0, null);
        assertThat(spool.file()).exists();
        assertThat(spool.waiting()).isEqualTo(1);
        assertThat(spool.flush()).isEqualTo(1);
        assertThat(spool.file()).doesNotExist();
        assertThat(new NotesDao(store).list(false, "cli", "", 10)).extracting(NoteRow::text)
                .containsExactly("kept again", "kept while locked");
    }

    @Test
    void a_later_note_does_not_overtake_one_still_waiting() throws Exception {
        try (Connection other = writeLock()) {
            spool.submit("older", "user", 0, null);
        }
        NoteSpool.Submitted newer = spool.submit("newer", "user", 0, null);
        assertThat(newer.stored()).as("it queues behind the older one").isFalse();
        assertThat(newer.problem()).contains("older messages still wait");
        spool.flush();
        assertThat(new NotesDao(store).after(0, 10)).extracting(NoteRow::text).containsExactly("older", "newer");
    }

    @Test
    void what_waits_survives_the_process_and_the_next_start_stores_it() throws Exception {
        try (Connection other = writeLock()) {
            spool.submit("typed just before a crash", "user", 0, null);
        }
        store.close();
        try (Store next = Store.open(db, clock)) {
            NoteSpool again = new NoteSpool(next, new NotesDao(next));
            assertThat(again.flush()).isEqualTo(1);
            assertThat(new NotesDao(next).unread(NoteFilter.ALL, 10)).extracting(NoteRow::text)
                    .containsExactly("typed just before a crash");
        }
        store = Store.open(db, clock);
    }

    @Test
    void when_even_the_spool_cannot_be_written_the_note_is_held_in_memory_and_stored_later() throws Exception {
        Files.createDirectory(spool.file());   // the spool cannot be opened as a file: as good as a full disk
        NoteSpool.Submitted s;
        try (Connection other = writeLock()) {
            s = spool.submit("typed on a full disk", "user", 0, null);
        }
        assertThat(s.stored()).isFalse();
        assertThat(s.inMemory()).isTrue();
        assertThat(spool.waiting()).isEqualTo(1);

        assertThat(spool.flush()).isEqualTo(1);
        assertThat(new NotesDao(store).after(0, 10)).extracting(NoteRow::text).containsExactly("typed on a full disk");
        assertThat(spool.waiting()).isZero();
    }

    @Test
    void at_the_end_what_is_held_in_memory_goes_to_the_spool_or_is_handed_back_to_be_said() throws Exception {
        Files.createDirectory(spool.file());
        try (Connection other = writeLock()) {
            spool.submit("first", "user", 0, null);
        }
        assertThat(spool.keepForNextStart()).containsExactly("first");   // still nowhere to keep it: say it

        Files.delete(spool.file());
        try (Connection other = writeLock()) {
            spool.submit("second", "user", 0, null);   // the spool works again: kept there
        }
        assertThat(spool.keepForNextStart()).isEmpty();
        assertThat(Files.readString(spool.file())).contains("second");
    }

    @Test
    void a_torn_last_line_from_a_crash_mid_append_is_skipped_and_the_rest_is_stored() throws Exception {
        NoteSpool.spool(db, "whole", "cli", 0, null);
        Files.writeString(spool.file(), "{\"text\": \"torn", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        assertThat(spool.flush()).isEqualTo(1);
        assertThat(new NotesDao(store).after(0, 10)).extracting(NoteRow::text, NoteRow::source)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("whole", "cli"));
    }
}
