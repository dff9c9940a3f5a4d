package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.jline.reader.Candidate;
import org.jline.reader.ParsedLine;
import org.jline.reader.impl.DefaultParser;
import org.junit.jupiter.api.Test;

class SlashCommandsTest {
    final SlashCommands commands = new SlashCommands()
            .add(new SlashCommand("/status", "", "state and tick", args -> "status!"))
            .add(new SlashCommand("/log", "[n]", "the last ticks", args -> "log " + args))
            .add(new SlashCommand("/verbose", "[quiet|normal|full]", "how much shows", args -> "v",
                    () -> List.of("quiet", "normal", "full")))
            .add(new SlashCommand("/quit", "", "leave", args -> "bye"))
            .alias("/exit", "/quit");

    @Test
    void a_command_runs_with_what_follows_its_name() {
        assertThat(commands.run("/log  20 ")).isEqualTo("log 20");
        assertThat(commands.run("/exit")).isEqualTo("bye");
        assertThat(commands.run("/STATUS")).as("letter case aside").isEqualTo("status!");
        assertThat(commands.run("/Exit")).isEqualTo("bye");
    }

    @Test
    void an_unknown_command_gets_the_closest_one_suggested() {
        assertThat(commands.run("/stauts")).isEqualTo("unknown command /stauts; did you mean /status? (/help lists them)");
        assertThat(commands.run("/verb")).contains("did you mean /verbose?");
        assertThat(commands.run("/zzzzzzzz")).isEqualTo("unknown command /zzzzzzzz (/help lists them)");
    }

    @Test
    void a_path_is_a_message_not_a_command() {
        assertThat(SlashCommands.isCommand("/status")).isTrue();
        assertThat(SlashCommands.isCommand("/etc/hosts is missing")).isFalse();
        assertThat(SlashCommands.isCommand("/")).isFalse();
    }

    @Test
    void help_lists_every_command_with_its_arguments_and_summary_aligned_and_its_aliases() {
        assertThat(commands.help()).isEqualTo(String.join("\n",
                "  /status                       state and tick",
                "  /log [n]                      the last ticks",
                "  /verbose [quiet|normal|full]  how much shows",
                "  /quit, /exit                  leave"));
    }

    @Test
    void tab_offers_command_names_with_summaries_then_argument_values() {
        assertThat(complete("/st")).extracting(Candidate::value).containsExactly("/status", "/log", "/verbose", "/quit");
        assertThat(complete("/st")).filteredOn(c -> c.value().equals("/status")).extracting(Candidate::descr)
                .containsExactly("state and tick");
        assertThat(complete("/verbose n")).extracting(Candidate::value).containsExactly("quiet", "normal", "full");
        assertThat(complete("hello wor")).isEmpty();
    }

    @Test
    void two_commands_of_one_name_are_a_wiring_mistake() {
        assertThatThrownBy(() -> commands.add(new SlashCommand("/log", "", "again", a -> "")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private List<Candidate> complete(String line) {
        ParsedLine parsed = new DefaultParser().parse(line, line.length());
        List<Candidate> out = new ArrayList<>();
        commands.completer().complete(null, parsed, out);
        return out;
    }
}
