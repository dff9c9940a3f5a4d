package dev.hmpagent.commands.catalogue;

import static dev.hmpagent.commands.catalogue.CommandFixture.context;
import dev.hmpagent.commands.CommandRun;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.MemoryDao;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryCommandsTest {
    @TempDir Path dir;
    CommandFixture f;

    @BeforeEach
    void open() {
        f = new CommandFixture(dir);
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void memory_add_and_delete_change_llm_memory_and_a_missing_id_is_an_error_with_pain() {
        CommandRun add = f.one(1, "memory_add", "{\"title\": \"t\", \"content\": \"c\", \"tags\": [\"a\", \"b\"]}");
        assertThat(add.status()).isEqualTo("ok");
        MemoryDao memory = new MemoryDao(f.store);
        assertThat(memory.latest(5)).singleElement().satisfies(m -> assertThat(m.tags()).isEqualTo("a,b"));
        long id = memory.latest(1).get(0).id();
        assertThat(context(f.prompt(2), 6)).contains("[memory " + id + ", tags a,b] t: c");

        List<CommandRun> del = f.run(2, "[{\"type\": \"memory_delete\", \"args\": {\"id\": " + id + "}},"
                + " {\"type\": \"memory_delete\", \"args\": {\"id\": 999}}]");
        assertThat(del).extracting(CommandRun::status).containsExactly("ok", "error");
        assertThat(memory.count()).isZero();
        assertThat(f.failures).singleElement().satisfies(fact -> assertThat(fact.detail()).contains("no memory entry with id 999"));
        assertThat(context(f.prompt(3), 6)).contains("(empty: add with memory_add or goal_add)");
    }

    @Test
    void memory_list_returns_the_entries_with_a_tag_as_its_result() {
        f.run(1, """
                [{"type": "memory_add", "args": {"title": "plan", "content": "learn the user's name", "tags": "plan,user"}},
                 {"type": "memory_add", "args": {"content": "mesh idea", "tags": "idea"}},
                 {"type": "memory_add", "args": {"title": "plan b", "content": "ask again", "tags": "Plan"}}]""");
        CommandRun list = f.one(2, "memory_list", "{\"tags\": \"plan\"}");
        assertThat(list.result()).isEqualTo("""
                2 notebook entries tagged plan (newest first):
                [memory 3, tags Plan] plan b: ask again
                [memory 1, tags plan,user] plan: learn the user's name""");
        assertThat(f.one(3, "memory_list", "{\"limit\": 1}").result()).startsWith("1 notebook entry (newest first):\n[memory 3");
        assertThat(f.one(4, "memory_list", "{\"tags\": \"nothing\"}").result()).isEqualTo("no notebook entries tagged nothing");
        assertThat(f.registry.find("memory_list").orElseThrow().informs()).isTrue();
        assertThat(f.registry.find("memory_add").orElseThrow().informs()).isFalse();
    }
}
