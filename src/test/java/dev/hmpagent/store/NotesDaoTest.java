package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NotesDaoTest {
    @TempDir Path dir;

    @Test
    void the_tag_filter_matches_whole_tags_case_and_space_insensitively_and_literally() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"))) {
            NotesDao notes = new NotesDao(store);
            notes.add("a", "cli", 0, "Ops, urgent");
            notes.add("b", "cli", 0, "opsx");
            notes.add("c", "cli", 0, "a_b");
            notes.add("d", "peer", 0, "axb");
            notes.add("e", "system", 0, null);
            notes.add("typed", "user", -5, "other");

            assertThat(texts(notes, new NoteFilter(0, NoteFilter.tagList(" ops "))))
                    .as("what the user typed always passes").containsExactly("a", "typed");
            assertThat(texts(notes, new NoteFilter(0, NoteFilter.tagList("a_b")))).containsExactly("c", "typed");
            assertThat(texts(notes, new NoteFilter(0, NoteFilter.tagList("%")))).containsExactly("typed");
            assertThat(texts(notes, NoteFilter.ALL)).containsExactly("a", "b", "c", "d", "e", "typed");
            assertThat(notes.maxUnreadId(new NoteFilter(0, NoteFilter.tagList("urgent")))).isEqualTo(6);
            assertThat(notes.maxUnreadId(new NoteFilter(100, List.of()))).isEqualTo(6);
        }
    }

    @Test
    void the_priority_filter_holds_back_lower_notes() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"))) {
            NotesDao notes = new NotesDao(store);
            notes.add("low", "cli", -1, null);
            notes.add("normal", "cli", 0, null);
            assertThat(texts(notes, new NoteFilter(0, List.of()))).containsExactly("normal");
        }
    }

    private static List<String> texts(NotesDao notes, NoteFilter filter) {
        return notes.unread(filter, 50).stream().map(NoteRow::text).toList();
    }
}
