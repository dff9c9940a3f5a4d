package dev.hmpagent.cli;

import dev.hmpagent.config.LoadedConfig;
import java.io.PrintWriter;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code agent config}: every effective value and where it came from, secrets masked. */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = "Print every effective config value and where it came from (secrets masked).")
final class ConfigCommand implements Callable<Integer> {
    @Mixin CommonOptions options;
    @Spec CommandSpec spec;

    private final AgentCommand root;
    private final Launch launch;

    ConfigCommand(AgentCommand root, Launch launch) {
        this.root = Objects.requireNonNull(root, "root");
        this.launch = Objects.requireNonNull(launch, "launch");
    }

    @Override
    public Integer call() {
        LoadedConfig loaded = options.over(root.options).load(launch.env());
        PrintWriter out = spec.commandLine().getOut();
        loaded.describe().forEach(out::println);
        out.flush();
        return ExitCodes.OK;
    }
}
