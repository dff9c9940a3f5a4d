package dev.hmpagent.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StandingInstructionsTest {
    @TempDir
    Path dir;

    @Test
    void a_file_within_the_cap_is_kept_whole_and_rendered_under_its_heading() throws IOException {
        Files.writeString(dir.resolve("AGENTS.md"), "Use tabs.\n");
        StandingInstructions read = StandingInstructions.read(dir, 100);
        assertThat(read.found()).isTrue();
        assertThat(read.cut()).isFalse();
        assertThat(read.bytes()).isEqualTo(10);
        assertThat(read.cutLine()).isEmpty();
        assertThat(read.line()).isEqualTo(dir.resolve("AGENTS.md") + ": 10 bytes, read whole as standing instructions");
        assertThat(read.render()).startsWith("Standing instructions from the person who runs you")
                .endsWith(":\nUse tabs.");
    }

    @Test
    void a_file_over_the_cap_is_cut_before_a_character_the_cap_splits_and_says_so() throws IOException {
        Files.write(dir.resolve("AGENTS.md"), "abcdé fin".getBytes(StandardCharsets.UTF_8));   // é is bytes 4 and 5
        StandingInstructions read = StandingInstructions.read(dir, 5);
        assertThat(read.text()).isEqualTo("abcd");
        assertThat(read.kept()).isEqualTo(4);
        assertThat(read.bytes()).isEqualTo(10);
        assertThat(read.cut()).isTrue();
        assertThat(read.cutLine()).contains(dir.resolve("AGENTS.md")
                + " is cut: the first 4 of its 10 bytes are kept as standing instructions (the cap is 32768 bytes)");
        assertThat(read.render()).endsWith("abcd\n[AGENTS.md was cut here: the first 4 of its 10 bytes are shown]");
    }

    @Test
    void no_file_or_a_directory_by_that_name_gives_no_instructions_and_says_why() throws IOException {
        StandingInstructions none = StandingInstructions.read(dir);
        assertThat(none.found()).isFalse();
        assertThat(none.render()).isEmpty();
        assertThat(none.line()).isEqualTo("no AGENTS.md in " + dir.toAbsolutePath().normalize());

        Files.createDirectory(dir.resolve("AGENTS.md"));
        StandingInstructions folder = StandingInstructions.read(dir);
        assertThat(folder.found()).isFalse();
        assertThat(folder.line()).endsWith("AGENTS.md cannot be read (not a regular file): no standing instructions");
    }

    @Test
    void context_0_holds_the_instructions_after_the_role_in_both_command_modes() {
        String block = SystemPrompt.render("a", "RULES", "- send_message");
        String tools = SystemPrompt.renderForTools("a", "RULES", "", "");
        assertThat(block.indexOf("RULES")).isPositive().isLessThan(block.indexOf("Reply format:"));
        assertThat(tools.indexOf("RULES")).isPositive().isLessThan(tools.indexOf("Reply format:"));
        assertThat(SystemPrompt.render("a", "", "- send_message")).doesNotContain("RULES")
                .contains("no commands.\n\nText that comes from outside");
    }
}
