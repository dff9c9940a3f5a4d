package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileIdentityTest {
    @TempDir Path dir;

    @Test
    void the_same_file_is_no_change_a_deleted_one_and_a_replaced_one_are_told_apart() throws Exception {
        Path db = Files.writeString(dir.resolve("agent.db"), "x");
        FileIdentity opened = FileIdentity.of(db);
        assertThat(opened.change()).isEmpty();
        Files.writeString(db, "written in place");
        assertThat(opened.change()).as("writing the same file is no change").isEmpty();

        Files.move(Files.writeString(dir.resolve("new.db"), "y"), db, StandardCopyOption.REPLACE_EXISTING);
        assertThat(opened.change()).contains("was replaced by another file");
        Files.delete(db);
        assertThat(opened.change()).contains("was deleted");
    }

    @Test
    void a_process_holding_the_deleted_file_open_is_found() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs Linux /proc");
        Path db = Files.writeString(dir.resolve("agent.db"), "x");
        long me = ProcessHandle.current().pid();
        try (FileChannel held = FileChannel.open(db, StandardOpenOption.READ)) {
            assertThat(FileIdentity.pidsHoldingDeleted(db)).as("not deleted yet").doesNotContain(me);
            Files.delete(db);
            assertThat(FileIdentity.pidsHoldingDeleted(db)).contains(me);
        }
        assertThat(FileIdentity.pidsHoldingDeleted(db)).doesNotContain(me);
    }
}
