package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.Map;
import java.util.function.Consumer;
import org.jline.terminal.impl.DumbTerminal;
import picocli.CommandLine;

/** One in-process {@code agent ARGS} on a dumb terminal: its exit code and what it printed. */
record CliRun(int code, String out, String err) {
    /** With an empty environment. */
    static CliRun agent(String... args) {
        return agent(Map.of(), cl -> { }, args);
    }

    /** {@code setUp} adjusts the command line before it runs, e.g. its usage width. */
    static CliRun agent(Consumer<CommandLine> setUp, String... args) {
        return agent(Map.of(), setUp, args);
    }

    static CliRun agent(Map<String, String> env, Consumer<CommandLine> setUp, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Launch launch = new Launch(env, () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]),
                new ByteArrayOutputStream()), Clock.systemUTC(), false);
        CommandLine cl = Cli.commandLine(launch, args);   // the tree main builds for these arguments
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        setUp.accept(cl);
        int code = cl.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }
}
