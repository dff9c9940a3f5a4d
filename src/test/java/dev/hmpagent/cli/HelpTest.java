package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.ConfigKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** `agent --help` and every subcommand's: Examples, Environment, Exit codes, 80 columns, nothing copyable broken. */
class HelpTest {
    static final List<String> SUBCOMMANDS =
            List.of("config", "note", "check", "halt", "unlock", "status", "run", "log", "replay", "mcp", "completion");

    /** "" for the root command, else a subcommand's name. */
    static Stream<String> commands() {
        return Stream.concat(Stream.of(""), SUBCOMMANDS.stream());
    }

    /** What {@code agent [command] --help} prints, laid out for {@code width} columns. */
    static String help(String command, int width) {
        String[] args = command.isEmpty() ? new String[] {"--help"} : new String[] {command, "--help"};
        CliRun run = CliRun.agent(cl -> cl.setUsageHelpWidth(width), args);
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        return run.out();
    }

    static String help(String command) {
        return help(command, HelpSections.WIDTH);
    }

    /** The lines of a section, from its heading to the next blank line. */
    static List<String> section(String help, String heading) {
        List<String> lines = help.lines().toList();
        int start = lines.indexOf(heading + ":");
        assertThat(start).as("a %s section in%n%s", heading, help).isNotNegative();
        List<String> body = new ArrayList<>();
        for (int i = start + 1; i < lines.size() && !lines.get(i).isBlank(); i++) body.add(lines.get(i));
        return body;
    }

    @ParameterizedTest(name = "agent {0} --help")
    @MethodSource("commands")
    void has_two_to_four_examples_of_that_command(String command) {
        List<String> examples = section(help(command), "Examples");

        assertThat(examples).hasSizeBetween(2, 4).allSatisfy(line -> {
            assertThat(line).startsWith("  ");
            assertThat(line).containsPattern("\\bagent\\b" + (command.isEmpty() ? "" : ".* " + command + "\\b"));
        });
    }

    @ParameterizedTest(name = "agent {0} --help")
    @MethodSource("commands")
    void ends_with_environment_then_exit_codes(String command) {
        String help = help(command);

        List<Integer> at = List.of(help.indexOf("\nExamples:\n"), help.indexOf("\n\nEnvironment:\n"),
                help.indexOf("\n\nExit codes:\n"));
        assertThat(at).doesNotContain(-1).isSorted();
        List<String> lines = help.lines().toList();
        assertThat(section(help, "Exit codes")).last().isEqualTo(lines.get(lines.size() - 1));
    }

    @Test
    void the_exit_codes_are_one_text_everywhere_and_say_what_design_md_says() {
        List<String> root = section(help(""), "Exit codes");

        assertThat(String.join("\n", root)).isEqualTo(String.join("\n",
                "  0 ok · 1 unexpected failure · 2 bad usage",
                "  3 bad configuration (a rejected API key too) · 4 file in use by another agent",
                "  5 database error · 6 LLM unavailable after llm.give_up_s · 7 stopped or locked",
                "  8 piped: the LLM answered but nothing could be shown"));
        for (String command : SUBCOMMANDS) {
            List<String> codes = section(help(command), "Exit codes");
            if (command.equals("completion")) {
                assertThat(codes).containsExactly("  0 ok · 1 unexpected failure · 2 bad usage");
            } else {
                // only the REPL's piped input waits for an answer to show
                assertThat(codes).as(command).isEqualTo(root.subList(0, root.size() - 1));
            }
        }
    }

    @Test
    void commands_that_reach_the_llm_list_its_variables_the_others_only_the_file_and_config_ones() {
        for (String command : List.of("run", "config")) {
            assertThat(names(section(help(command), "Environment"))).as(command).containsExactly("AGENT_DB",
                    "AGENT_<TABLE>_<KEY>", "XDG_CONFIG_HOME", "OPENAI_BASE_URL", "OPENAI_API_KEY", "ANTHROPIC_API_KEY",
                    "OLLAMA_API_KEY", "OLLAMA_HOST", "XDG_CACHE_HOME");
        }
        // the REPL alone draws in colour
        assertThat(names(section(help(""), "Environment"))).containsExactly("AGENT_DB",
                "AGENT_<TABLE>_<KEY>", "XDG_CONFIG_HOME", "OPENAI_BASE_URL", "OPENAI_API_KEY", "ANTHROPIC_API_KEY",
                "OLLAMA_API_KEY", "OLLAMA_HOST", "XDG_CACHE_HOME", "NO_COLOR", "CLICOLOR_FORCE");
        for (String command : List.of("note", "check", "halt", "unlock", "status", "log", "replay")) {
            assertThat(names(section(help(command), "Environment"))).as(command)
                    .containsExactly("AGENT_DB", "AGENT_<TABLE>_<KEY>", "XDG_CONFIG_HOME", "XDG_CACHE_HOME");
        }
        assertThat(section(help("completion"), "Environment")).containsExactly("  none");
    }

    static List<String> names(List<String> section) {
        return section.stream().filter(l -> !l.startsWith("   ")).map(l -> l.strip().split(" ")[0]).toList();
    }

    @Test
    void every_variable_the_config_reads_is_covered_by_the_environment_section() {
        String environment = String.join("\n", section(help("config"), "Environment"));

        for (ConfigKey key : ConfigKey.values()) {
            String pattern = "AGENT_" + key.section().toUpperCase() + "_" + key.leafName().toUpperCase();
            for (String variable : key.envNames()) {
                assertThat(variable.equals(pattern) || environment.contains(variable))
                        .as("%s (for %s) is AGENT_<TABLE>_<KEY> or listed", variable, key.fullName()).isTrue();
            }
        }
        assertThat(environment).contains("OLLAMA_HOST");
    }

    @ParameterizedTest(name = "agent {0} --help")
    @MethodSource("commands")
    void no_line_is_wider_than_80_columns(String command) {
        assertThat(help(command).lines()).allSatisfy(line -> assertThat(line.length()).as(line).isLessThanOrEqualTo(80));
    }

    /** Something a person copies: a path, a URL, a config key, a variable, an option. */
    static final Pattern COPYABLE = Pattern.compile(".*[/.$].*|-.*");

    @ParameterizedTest(name = "agent {0} --help")
    @MethodSource("commands")
    void no_url_path_key_or_option_is_broken_across_lines_at_80_columns(String command) {
        Map<String, Long> narrow = tokens(help(command, 80));
        Map<String, Long> whole = tokens(help(command, 1000));
        whole.keySet().removeIf(t -> !COPYABLE.matcher(t).matches());

        assertThat(whole).as("the wide help has URLs and paths").isNotEmpty();
        whole.forEach((token, times) -> assertThat(narrow.getOrDefault(token, 0L))
                .as("%s whole at 80 columns in%n%s", token, help(command, 80)).isEqualTo(times));
    }

    /** Whitespace-separated words, without the punctuation of the sentence around them, and how often each occurs. */
    static Map<String, Long> tokens(String text) {
        return Arrays.stream(text.split("\\s+"))
                .map(t -> t.replaceAll("^[(\"'`]+|[)\"'`,;:.]+$", ""))
                .filter(t -> t.length() > 1)
                .collect(Collectors.groupingBy(t -> t, HashMap::new, Collectors.counting()));
    }

    @Test
    void the_wide_help_of_the_root_shows_the_urls_and_paths_the_test_guards() {
        Map<String, Long> tokens = tokens(help("", 1000));

        assertThat(tokens).containsKeys("http://localhost:11434/v1", "./agent.db", "./agent.toml",
                "$XDG_CONFIG_HOME/hmp-agent/agent.toml", "~/.config/hmp-agent/agent.toml", "https://api.openai.com/v1");
    }
}
