package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tick's prompt is stored in two statements and read back part for part, each text once however often shown. */
class PromptsDaoTest {
    @TempDir
    Path dir;

    @Test
    void parts_come_back_in_order_and_a_text_shown_twice_or_by_two_ticks_is_stored_once() {
        try (Store store = Store.open(dir.resolve("p.db"), Clock.systemUTC())) {
            PromptsDao prompts = store.tables().prompts();
            List<PromptPart> first = List.of(new PromptPart(0, "system", 0, "the catalogue"),
                    new PromptPart(1, "user", 3, "same text"), new PromptPart(1, "user", 4, "same text"),
                    new PromptPart(1, "user", 6, "tick one's goals"));
            List<PromptPart> second = List.of(new PromptPart(0, "system", 0, "the catalogue"),
                    new PromptPart(1, "user", 6, "tick two's goals"));
            store.inTransaction(() -> prompts.save(1, first));
            store.inTransaction(() -> prompts.save(2, second));
            prompts.save(3, List.of());

            assertThat(prompts.load(1)).isEqualTo(first);
            assertThat(prompts.load(2)).isEqualTo(second);
            assertThat(prompts.load(3)).isEmpty();
            assertThat(store.queryLong("SELECT count(*) FROM prompt_sections")).isEqualTo(4);
            assertThat(store.queryLong("SELECT count(*) FROM tick_prompts")).isEqualTo(6);
        }
    }

    @Test
    void a_section_whose_first_save_was_rolled_back_or_deleted_elsewhere_is_stored_again() {
        Path file = dir.resolve("q.db");
        try (Store store = Store.open(file, Clock.systemUTC()); Store other = Store.open(file, Clock.systemUTC())) {
            PromptsDao prompts = store.tables().prompts();
            List<PromptPart> parts = List.of(new PromptPart(0, "system", 0, "the catalogue"),
                    new PromptPart(1, "user", 4, "a note"));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.inTransaction(() -> {
                prompts.save(1, parts);
                throw new IllegalStateException("the tick's write failed");
            })).hasMessage("the tick's write failed");
            assertThat(store.queryLong("SELECT count(*) FROM prompt_sections")).isZero();
            store.inTransaction(() -> prompts.save(2, parts));
            assertThat(prompts.load(2)).as("stored again after the rollback").isEqualTo(parts);

            store.inTransaction(() -> prompts.save(3, parts));
            assertThat(prompts.load(3)).isEqualTo(parts);
            other.inTransaction(() -> {
                other.update("DELETE FROM tick_prompts");
                other.update("DELETE FROM prompt_sections");
            });
            store.inTransaction(() -> prompts.save(4, parts));
            assertThat(prompts.load(4)).as("another process emptied the table: stored again").isEqualTo(parts);
        }
    }
}
