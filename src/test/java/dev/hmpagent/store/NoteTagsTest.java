package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NoteTagsTest {
    @TempDir Path dir;

    @Test
    void hashtags_are_words_after_a_hash_lower_cased_once_each_and_not_inside_words_urls_or_numbers() {
        assertThat(NoteTags.hashtags("#Mesh is down, see #mesh and #ops-team. (#urgent) #мысль"))
                .containsExactly("mesh", "ops-team", "urgent", "мысль");
        assertThat(NoteTags.hashtags("page#top http://x/#anchor issue #12 C# a## ##b #"))
                .as("inside a word or URL, a number, no word").isEmpty();
        assertThat(NoteTags.hashtags("#end-")).containsExactly("end");
    }

    @Test
    void mentions_are_names_or_dids_after_an_at_sign_and_not_email_addresses() {
        assertThat(NoteTags.mentions("@ann ping @did:hmp:abc123, and @Bob. mail bob@example.com @ann"))
                .containsExactly("ann", "did:hmp:abc123", "Bob");
        assertThat(NoteTags.mentions("x@y @ @.")).isEmpty();
    }

    @Test
    void every_way_a_note_is_created_fills_the_hashtags_and_mentions_columns() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"))) {
            NotesDao notes = new NotesDao(store);
            long user = notes.add("hi @agent, #Mesh is down", "user", 0, null);
            long cli = notes.add("from the cli #ops", "cli", 0, null);
            long llm = notes.addFromLlm("looking at #mesh for @ann", "m", 1);
            long reply = notes.addReplyFromLlm("done #mesh", "m", 2, user);
            long plain = notes.add("nothing here", "peer", 0, null);

            assertThat(notes.get(user).orElseThrow()).satisfies(n -> {
                assertThat(n.hashtags()).containsExactly("mesh");
                assertThat(n.mentions()).containsExactly("agent");
            });
            assertThat(notes.get(cli).orElseThrow().hashtags()).containsExactly("ops");
            assertThat(notes.get(llm).orElseThrow().mentions()).containsExactly("ann");
            assertThat(notes.get(reply).orElseThrow()).satisfies(n -> {
                assertThat(n.replyTo()).isEqualTo(user);
                assertThat(n.read()).isTrue();
            });
            assertThat(store.query("SELECT hashtags, mentions FROM notes WHERE id = ?",
                    rs -> rs.getString(1) + " " + rs.getString(2), plain)).containsExactly("[] []");
            assertThat(store.query("SELECT hashtags FROM notes WHERE id = ?", rs -> rs.getString(1), user))
                    .as("the HMP column holds a JSON array").containsExactly("[\"mesh\"]");
        }
    }

    @Test
    void a_spooled_note_gets_its_hashtags_when_it_is_stored() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"))) {
            NotesDao notes = new NotesDao(store);
            NoteSpool spool = new NoteSpool(store, notes);
            NoteSpool.Submitted s = spool.submit("spooled #later", "cli", 0, null);
            assertThat(notes.get(s.noteId()).orElseThrow().hashtags()).isEqualTo(List.of("later"));
        }
    }
}
