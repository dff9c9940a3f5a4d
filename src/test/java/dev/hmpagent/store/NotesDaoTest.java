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

    @Test
    void the_filter_also_matches_hashtags_sources_and_time_and_a_person_always_passes() {
        MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            NotesDao notes = new NotesDao(store);
            notes.add("old #ops", "cli", 0, null);
            clock.advance(java.time.Duration.ofDays(1));
            notes.add("new #ops", "cli", 0, null);
            notes.add("peer #ops", "peer", 0, null);
            notes.add("system, no tag", "system", 0, null);
            notes.add("typed by the person", "user", 0, null);

            NoteFilter filter = NoteFilter.fromJson("{\"tags\": \"#OPS\", \"sources\": [\"cli\"], \"since\": \"2026-11-22\"}");
            assertThat(texts(notes, filter)).containsExactly("new #ops", "typed by the person");
            assertThat(notes.unreadCount(filter)).isEqualTo(2);
            assertThat(NoteFilter.fromJson(filter.toJson())).isEqualTo(filter);
            assertThat(filter.describe()).isEqualTo("tags ops, sources cli, since 2026-11-22T00:00:00Z");
        }
    }

    @Test
    void a_bad_filter_names_the_field_and_how_to_write_it() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> NoteFilter.fromJson("{\"sources\": [\"email\"]}"))
                .hasMessage("filter.sources: unknown source \"email\"; sources are cli, peer, system, user");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> NoteFilter.fromJson("{\"since\": \"yesterday\"}"))
                .hasMessageContaining("filter.since must be an ISO-8601 time");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> NoteFilter.fromJson("{\"priority\": 1}"))
                .hasMessageContaining("filter.priority is not a filter field");
    }

    @Test
    void the_capped_list_puts_a_persons_notes_first_and_takes_at_most_n_from_each_source() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"))) {
            NotesDao notes = new NotesDao(store);
            for (int i = 1; i <= 4; i++) notes.add("peer " + i, "peer", 0, null);
            notes.add("user 1", "user", 0, null);
            notes.add("cli 1", "cli", 0, null);
            notes.add("user 2", "user", 0, null);
            notes.add("user 3", "user", 0, null);

            List<NoteRow> capped = notes.unreadCapped(NoteFilter.ALL, 2, 20);
            assertThat(capped).extracting(NoteRow::text).containsExactly("user 1", "user 2", "peer 1", "peer 2", "cli 1");
            assertThat(notes.minUnreadIdExcept(NoteFilter.ALL, capped.stream().map(NoteRow::id).toList()))
                    .as("the first note held back").isEqualTo(3);
            assertThat(notes.unreadCapped(NoteFilter.ALL, 2, 3)).extracting(NoteRow::text)
                    .containsExactly("user 1", "user 2", "peer 1");
        }
    }

    private static List<String> texts(NotesDao notes, NoteFilter filter) {
        return notes.unread(filter, 50).stream().map(NoteRow::text).toList();
    }
}
