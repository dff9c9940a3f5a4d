package dev.hmpagent.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteQuotaTest {
    @TempDir Path root;

    void write(String name, int bytes) throws IOException {
        Files.createDirectories(root.resolve(name).getParent());
        Files.write(root.resolve(name), new byte[bytes]);
    }

    @Test
    void the_first_command_of_a_task_takes_the_baseline_and_what_was_there_before_does_not_count() throws IOException {
        write("old/big.bin", 5000);
        WriteQuota quota = new WriteQuota(List.of(root), 1000, 10);

        assertThat(quota.over("task 1")).isEmpty();
        write("new.bin", 900);
        assertThat(quota.over("task 1")).as("900 bytes and 1 file added, under 1000 and 10").isEmpty();
    }

    @Test
    void past_the_bytes_a_command_is_refused_with_what_was_added_and_the_key_to_raise() throws IOException {
        WriteQuota quota = new WriteQuota(List.of(root), 1000, 10);
        quota.over("t");
        write("a.bin", 600);
        write("b.bin", 600);

        assertThat(quota.over("t")).hasValueSatisfying(line -> assertThat(line)
                .isEqualTo("this task's commands have added 1,200 bytes and 2 files to the file roots, over"
                        + " sandbox.task_max_bytes (1,000 bytes): delete what it made that is not needed, or a person's"
                        + " next message starts a new task (a person may raise sandbox.task_max_bytes in agent.toml)"));
    }

    @Test
    void past_the_files_and_folders_a_command_is_refused_too_and_deleting_them_brings_the_task_back_under()
            throws IOException {
        WriteQuota quota = new WriteQuota(List.of(root), 1_000_000, 10);
        quota.over("t");
        for (int i = 0; i < 11; i++) write("many/f" + i, 0);

        assertThat(quota.over("t")).hasValueSatisfying(line -> assertThat(line)
                .contains("added 0 bytes and 12 files").contains("over sandbox.task_max_files (10)"));
        try (var files = Files.list(root.resolve("many"))) {
            for (Path f : files.toList()) Files.delete(f);
        }
        assertThat(quota.over("t")).isEmpty();
    }

    @Test
    void a_new_task_starts_from_what_is_there_then() throws IOException {
        WriteQuota quota = new WriteQuota(List.of(root), 1000, 10);
        quota.over("task 1");
        write("a.bin", 5000);
        assertThat(quota.over("task 1")).isPresent();

        assertThat(quota.over("task 2")).as("the person's next message").isEmpty();
        write("b.bin", 500);
        assertThat(quota.over("task 2")).isEmpty();
    }

    @Test
    void a_root_inside_another_is_counted_once_and_links_are_not_followed() throws IOException {
        Path inner = Files.createDirectories(root.resolve("inner"));
        Path outside = Files.createTempDirectory("hmp-quota-outside-");
        Files.write(outside.resolve("huge.bin"), new byte[50_000]);
        WriteQuota quota = new WriteQuota(List.of(root, inner), 1000, 10);
        quota.over("t");
        write("inner/x.bin", 600);
        Files.createSymbolicLink(root.resolve("link"), outside);

        assertThat(quota.over("t")).as("600 bytes once, the link one entry and nothing behind it").isEmpty();
        assertThat(quota.measure()).isEqualTo(new WriteQuota.Usage(600, 4));
    }

    @Test
    void without_a_quota_nothing_is_walked_or_refused() throws IOException {
        WriteQuota quota = WriteQuota.unlimited();
        quota.over("t");
        write("a.bin", 5000);
        assertThat(quota.over("t")).isEmpty();
    }
}
