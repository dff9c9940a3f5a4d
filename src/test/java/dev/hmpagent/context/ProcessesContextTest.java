package dev.hmpagent.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Context 2 line by line: the rows seen and not closed (oldest first), then the unseen ones, each with its id, cmd,
 * name, tick, status, pain when it has any, and its result fenced as data; a closed row is not shown. It reads only
 * the columns it shows (issue 36), so a command's JSON, however long, is never read for it.
 */
class ProcessesContextTest {
    @TempDir Path dir;

    @Test
    void each_row_shows_what_it_was_its_status_its_pain_and_its_result_fenced_and_unseen_rows_come_last() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-30T10:00:00Z"))) {
            ProcessLogDao log = store.tables().processLog();
            String longJson = "{\"type\": \"file_write\", \"args\": {\"content\": \"" + "x".repeat(50_000) + "\"}}";
            long unseen = log.record(7, "memory_delete", "c-2", "{\"id\": 99}", "error", "no memory entry with id 99",
                    0.5, "fp-2");
            long seen = log.record(6, "file_write", "c-1", longJson, "ok", "wrote 50000 bytes", 0.0, "fp-1");
            long closed = log.record(5, "diary_entry", null, "{}", "close", "diary entry 1 written", 0.0, "fp-0");
            log.markSeen(List.of(seen), 6);

            String shown = new ProcessesContext(log).render(new DataFence("nonce-123")).render();

            assertThat(shown).contains("[id " + seen + ", cmd c-1, file_write, tick 6] ok: \n<data id=\"nonce-123\">\n"
                    + "wrote 50000 bytes\n</data id=\"nonce-123\">\n"
                    + "[id " + unseen + ", cmd c-2, memory_delete, tick 7] error, pain 0.5: \n<data id=\"nonce-123\">\n"
                    + "no memory entry with id 99\n</data id=\"nonce-123\">\n");
            assertThat(shown).doesNotContain("xxxxxxxxxx").doesNotContain("[id " + closed + ",");
        }
    }
}
