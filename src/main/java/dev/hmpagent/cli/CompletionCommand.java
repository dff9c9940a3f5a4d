package dev.hmpagent.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code agent completion bash|zsh}: picocli's completion script for the whole command tree. The same script
 * serves zsh: under zsh it loads compinit and bashcompinit itself (picocli's documented way), so zsh gets it
 * with a first line saying how to load it.
 */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Print a Tab-completion script for bash or zsh: subcommands, options and their values."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  source <(agent completion bash)        # this shell; to keep it: ~/.bashrc",
                "  agent completion bash > ~/.local/share/bash-completion/completions/agent",
                "  source <(agent completion zsh)         # in ~/.zshrc"})
final class CompletionCommand implements Callable<Integer> {
    /** The shells there is a script for: what SHELL completes to. */
    static final class Shells extends ArrayList<String> {
        Shells() {
            super(List.of("bash", "zsh"));
        }
    }

    @Parameters(paramLabel = "SHELL", completionCandidates = Shells.class, description = "bash or zsh.")
    String shell;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        if (!new Shells().contains(shell)) {
            throw new ParameterException(spec.commandLine(), "no completion for shell '" + shell + "': use bash or zsh");
        }
        String script = AutoComplete.bash("agent", spec.root().commandLine());
        PrintWriter out = spec.commandLine().getOut();
        if (shell.equals("zsh")) {
            out.println("# zsh: load with `source <(agent completion zsh)` in ~/.zshrc; the script enables bashcompinit.");
        }
        out.print(script);
        out.flush();
        return ExitCodes.OK;
    }
}
