package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `agent completion bash|zsh`: picocli's script for the whole command tree, and it completes in a real bash. */
class CompletionCommandTest {
    @TempDir Path dir;

    static String script(String shell) {
        CliRun run = CliRun.agent("completion", shell);
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        return run.out();
    }

    @Test
    void the_bash_script_completes_agent_with_every_subcommand_and_their_options() {
        String script = script("bash");

        assertThat(script).startsWith("#!/usr/bin/env bash").contains("complete -F _complete_agent")
                .contains("local commands=\"config note check halt unlock status run log replay mcp a2a peers spawn completion\"")
                .contains("'--db'", "'--base-url'", "'--set'", "'--version'")
                .contains("function _picocli_agent_run()").contains("'--hz'", "'--until-idle'", "'--exit-on-lockout'")
                .contains("function _picocli_agent_log()").contains("'--tick'", "'--follow'", "'--export-trace'")
                .contains("function _picocli_agent_replay()")
                .contains("function _picocli_agent_mcp_serve()")
                .contains("function _picocli_agent_spawn()").contains("'--instructions'")
                .contains("function _picocli_agent_completion()");
    }

    @Test
    void the_zsh_script_is_the_same_script_after_a_line_saying_how_to_load_it() {
        String zsh = script("zsh");

        assertThat(zsh.lines().findFirst()).hasValueSatisfying(first ->
                assertThat(first).startsWith("# zsh: ").contains("source <(agent completion zsh)"));
        assertThat(zsh.substring(zsh.indexOf('\n') + 1)).isEqualTo(script("bash"));
        assertThat(zsh).contains("autoload -U +X bashcompinit && bashcompinit");
    }

    /**
     * What bash's completion offers for the words typed so far, by sourcing the script in a real bash and calling its
     * completion function as bash would on Tab.
     */
    String complete(String script, String typed) throws IOException, InterruptedException {
        Path file = Files.writeString(dir.resolve("agent.bash"), script);
        String words = typed.endsWith(" ") ? typed + "''" : typed;
        String probe = "source " + file + "\n"
                + "COMP_LINE='" + typed + "'; COMP_POINT=${#COMP_LINE}\n"
                + "COMP_WORDS=(" + words + "); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n"
                + "_complete_agent\n"
                + "printf '%s\\n' \"${COMPREPLY[@]}\" | sort\n";
        Process bash = new ProcessBuilder("bash", "--norc", "--noprofile", "-c", probe)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();   // compopt: "not currently executing completion"
        assertThat(bash.waitFor(30, TimeUnit.SECONDS)).as("bash finished").isTrue();
        return new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    }

    @Test
    void sourced_in_bash_it_completes_subcommands_options_and_shells() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/bash")) || Files.isExecutable(Path.of("/usr/bin/bash")),
                "bash is installed");
        String script = script("bash");

        assertThat(complete(script, "agent lo")).isEqualTo("log");
        assertThat(complete(script, "agent c").lines()).containsExactly("check", "completion", "config");
        assertThat(complete(script, "agent run --h").lines()).containsExactly("--help", "--hz");
        assertThat(complete(script, "agent completion ").lines()).containsExactly("bash", "zsh");
        assertThat(List.of(complete(script, "agent log --ti"))).containsExactly("--tick");
        assertThat(complete(script, "agent --provider ").lines()).as("option values too")
                .containsExactly("anthropic", "ollama", "openai");
        assertThat(complete(script, "agent run --provider o").lines()).containsExactly("ollama", "openai");
        assertThat(complete(script, "agent --verbose ").lines()).containsExactly("full", "normal", "quiet");
    }
}
