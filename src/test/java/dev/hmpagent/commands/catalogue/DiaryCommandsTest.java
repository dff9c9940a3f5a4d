package dev.hmpagent.commands.catalogue;

import static dev.hmpagent.commands.catalogue.CommandFixture.context;
import dev.hmpagent.commands.CommandRun;
import dev.hmpagent.context.ContextKeys;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.DiaryRow;
import dev.hmpagent.store.SettingsDao;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiaryCommandsTest {
    @TempDir Path dir;
    CommandFixture f;
    DiaryDao diary;

    @BeforeEach
    void open() {
        f = new CommandFixture(dir);
        diary = new DiaryDao(f.store);
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void entries_are_written_updated_and_deleted_and_a_missing_id_says_where_the_ids_are() {
        f.run(1, """
                [{"type": "diary_entry", "args": {"text": "the mesh is quiet", "tags": "mesh", "priority": 1}},
                 {"type": "diary_entry", "args": {"text": "lunch"}}]""");
        List<CommandRun> runs = f.run(2, """
                [{"type": "diary_update", "args": {"id": 1, "text": "the mesh is loud", "priority": 2}},
                 {"type": "diary_delete", "args": {"id": 2}},
                 {"type": "diary_update", "args": {"id": 9, "tags": "x"}},
                 {"type": "diary_update", "args": {"id": 1}}]""");

        assertThat(runs).extracting(CommandRun::status).containsExactly("ok", "ok", "error", "error");
        assertThat(runs.get(2).result()).isEqualTo("diary_update: no diary entry with id 9; diary_search or context 3 "
                + "shows the ids");
        assertThat(runs.get(3).result()).contains("give at least one of text, tags, priority");
        assertThat(diary.search("", 10)).singleElement().satisfies(d -> {
            assertThat(d.text()).isEqualTo("the mesh is loud");
            assertThat(d.tags()).as("unchanged when not given").isEqualTo("mesh");
            assertThat(d.priority()).isEqualTo(2);
        });
    }

    @Test
    void diary_search_returns_the_matches_as_its_result_and_the_llm_sees_them_next_tick() {
        f.run(1, """
                [{"type": "diary_entry", "args": {"text": "mesh peers went silent", "tags": "mesh"}},
                 {"type": "diary_entry", "args": {"text": "lunch was good"}},
                 {"type": "diary_entry", "args": {"text": "the mesh woke up"}}]""");
        CommandRun search = f.one(2, "diary_search", "{\"query\": \"mesh\", \"limit\": 5}");

        assertThat(search.result()).isEqualTo("""
                2 diary entries match "mesh" (newest first):
                [diary 3, 2026-11-21T10:00:00Z] the mesh woke up
                [diary 1, 2026-11-21T10:00:00Z, tags mesh] mesh peers went silent""");
        assertThat(f.registry.find("diary_search").orElseThrow().informs()).isTrue();
        assertThat(context(f.prompt(3), 2)).contains("diary_search").contains("[diary 3, 2026-11-21T10:00:00Z] the mesh woke up");
        assertThat(f.one(4, "diary_search", "{\"query\": \"zebra\"}").result()).isEqualTo("no diary entry matches \"zebra\"");
    }

    @Test
    void diary_read_selects_entries_for_context_3() {
        f.run(1, "[{\"type\": \"diary_entry\", \"args\": {\"text\": \"mesh is quiet\", \"tags\": \"mesh\"}},"
                + " {\"type\": \"diary_entry\", \"args\": {\"text\": \"lunch\"}}]");
        CommandRun read = f.one(2, "diary_read", "{\"query\": \"mesh\", \"limit\": 3}");
        assertThat(read.result()).isEqualTo("1 diary entry and 0 concepts will show in context 3");
        assertThat(new SettingsDao(f.store).get(ContextKeys.DIARY_QUERY)).contains("mesh");
        assertThat(context(f.prompt(3), 3)).contains("mesh is quiet").doesNotContain("lunch");
    }

    @Test
    void a_pinned_entry_is_in_context_3_every_tick_until_unpinned() {
        f.run(1, "[{\"type\": \"diary_entry\", \"args\": {\"text\": \"remember: the user is Ann\"}},"
                + " {\"type\": \"diary_entry\", \"args\": {\"text\": \"not pinned\"}}]");
        CommandRun pin = f.one(2, "diary_pin", "{\"id\": 1}");
        assertThat(pin.result()).isEqualTo("diary entry 1 pinned: it shows in context 3 every tick until diary_unpin");
        assertThat(diary.get(1)).map(DiaryRow::pinned).contains(true);

        for (long tick = 3; tick <= 5; tick++) {
            assertThat(context(f.prompt(tick), 3)).as("tick " + tick)
                    .contains("[diary 1, 2026-11-21T10:00:00Z, pinned at tick 2] ")
                    .contains("remember: the user is Ann").doesNotContain("not pinned");
        }
        assertThat(f.one(6, "diary_unpin", "{\"id\": 1}").result()).isEqualTo("diary entry 1 unpinned");
        assertThat(context(f.prompt(7), 3)).doesNotContain("the user is Ann").contains("(none pinned or requested)");
        assertThat(f.one(8, "diary_unpin", "{\"id\": 1}").result()).isEqualTo("diary entry 1 was not pinned");
        assertThat(f.one(9, "diary_pin", "{\"id\": 42}").status()).isEqualTo("error");
    }

    @Test
    void beyond_the_cap_the_oldest_pins_are_left_out_with_a_line_saying_how_many() {
        for (int i = 1; i <= 4; i++) {
            f.one(i, "diary_entry", "{\"text\": \"entry " + i + "\"}");
        }
        f.one(5, "concept_add", "{\"name\": \"mesh\"}");
        for (int i = 1; i <= 4; i++) f.one(10 + i, "diary_pin", "{\"id\": " + i + "}");
        f.one(15, "concept_pin", "{\"name\": \"mesh\"}");

        String three = context(f.assembler(3, 10).assemble(16, f.clock.instant(), f.defaults).messages().get(1).content(), 3);

        assertThat(three).contains("(2 older pins left out: at most 3 pinned entries and concepts show; unpin what you "
                + "no longer need)").contains("entry 3").contains("entry 4").contains("[concept 1, pinned at tick 15] mesh")
                .doesNotContain("entry 1").doesNotContain("entry 2");
        assertThat(three.indexOf("entry 3")).as("oldest pin first").isLessThan(three.indexOf("entry 4"));
    }
}
