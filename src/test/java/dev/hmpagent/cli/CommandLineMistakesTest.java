package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A bad subcommand, option or value: one line on stderr saying what and which help to read; exit 2; no usage dump. */
class CommandLineMistakesTest {
    @ParameterizedTest(name = "agent {0}")
    @CsvSource(delimiter = '|', value = {
            "--frob               | agent: unknown option '--frob'; see agent --help",
            "log --tick x         | agent: invalid value for option '--tick': 'x' is not a long; see agent log --help",
            "log --tic 3          | agent: unknown option '--tic' (did you mean --tick?); see agent log --help",
            "run --h              | agent: unknown option '--h' (did you mean --hz, -h or --help?); see agent run --help",
            "cofnig               | agent: unknown command 'cofnig' (did you mean config or completion?); see agent --help",
            "log extra            | agent: unexpected argument 'extra'; see agent log --help",
            "note                 | agent: missing required parameter: 'TEXT'; see agent note --help",
            "run --hz             | agent: missing required parameter for option '--hz' (RATE); see agent run --help",
            "log --prompt         | agent: --prompt needs --tick N: agent log --tick 12 --prompt; see agent log --help",
            "completion fish      | agent: no completion for shell 'fish': use bash or zsh; see agent completion --help",
            "completion           | agent: missing required parameter: 'SHELL'; see agent completion --help",
            "what is 2+2?         | agent: unknown command 'what'; to ask the agent once: agent -p 'what is 2+2?'; see agent --help",
            "-p                   | agent: missing required parameter for option '--prompt' (TEXT); see agent --help",
    })
    void one_line_naming_the_mistake_and_the_help_to_read_and_exit_2(String args, String line) {
        CliRun run = CliRun.agent(args.split(" "));

        assertThat(run.code()).isEqualTo(ExitCodes.USAGE).isEqualTo(2);
        assertThat(run.err()).isEqualTo(line + System.lineSeparator());
        assertThat(run.out()).isEmpty();
    }

    @ParameterizedTest(name = "agent {0}")
    @CsvSource(delimiter = '|', value = {"frobnicate | agent", "status frobnicate | agent status"})
    void an_unknown_word_is_one_line_whatever_picocli_suggests(String args, String command) {
        CliRun run = CliRun.agent(args.split(" "));

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err().lines()).singleElement().satisfies(line -> assertThat(line)
                .matches("agent: (unknown command|unexpected argument) 'frobnicate'( \\(did you mean [a-z, ]+\\?\\))?"
                        + "(; to ask the agent once: agent -p 'frobnicate')?; see " + command + " --help"));
        assertThat(run.err()).doesNotContain("Usage:");
    }
}
