package dev.hmpagent.cli;

import dev.hmpagent.mcp.Controls;
import dev.hmpagent.runtime.Launch;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import picocli.CommandLine;

/**
 * {@code agent mcp serve}'s tools, carried out by the CLI's own commands: status, log and halt run {@code agent
 * status --json}, {@code agent log …} and {@code agent halt --reason …} in this process with the serve command's
 * options, so a peer sees exactly what a person at a shell sees (their errors too); a note goes through
 * {@link NoteDelivery} as the peer's, tagged {@code mcp}.
 */
final class PeerControls implements Controls {
    static final String SOURCE = "peer";
    static final String TAG = "mcp";

    private final Launch launch;
    private final List<String> common;
    private final Path db;

    PeerControls(Launch launch, List<String> commonArguments, Path db) {
        this.launch = Objects.requireNonNull(launch, "launch");
        this.common = List.copyOf(commonArguments);
        this.db = Objects.requireNonNull(db, "db");
    }

    @Override
    public Answer note(String text, int priority, String tags) {
        String tagged = tags == null || tags.isBlank() ? TAG : TAG + "," + tags;
        return Answer.ok(String.join("\n", NoteDelivery.deliver(db, launch.clock(), text, SOURCE, priority, tagged)));
    }

    @Override
    public Answer status() {
        // exit 7 is an answer (the agent is not ACTIVE), not a failure of the tool
        return run(List.of(ExitCodes.OK, ExitCodes.STOPPED), "status", "--json");
    }

    @Override
    public Answer log(int count, boolean json) {
        List<String> args = new ArrayList<>(List.of("log", "-n", Integer.toString(count)));
        if (json) args.add("--json");
        return run(List.of(ExitCodes.OK), args);
    }

    @Override
    public Answer tick(long tick, boolean prompt, boolean json) {
        List<String> args = new ArrayList<>(List.of("log", "--tick", Long.toString(tick)));
        if (prompt) args.add("--prompt");
        if (json) args.add("--json");
        return run(List.of(ExitCodes.OK), args);
    }

    @Override
    public Answer halt(String reason) {
        return run(List.of(ExitCodes.OK), "halt", "--reason=" + SOURCE + " over MCP: " + reason);
    }

    private Answer run(List<Integer> answers, String... args) {
        return run(answers, List.of(args));
    }

    /** Runs {@code agent <common options> args} here; its output is the answer, or its error line the failure. */
    private Answer run(List<Integer> answers, List<String> args) {
        List<String> all = new ArrayList<>(common);
        all.addAll(args);
        String[] argv = all.toArray(String[]::new);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Cli.commandLine(launch, argv);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(argv);
        if (answers.contains(code)) return Answer.ok(out.toString().stripTrailing());
        String why = err.toString().strip().replaceFirst("^agent: ", "");
        return Answer.failure((why.isEmpty() ? "agent " + args.get(0) + " failed" : why.lines().findFirst().orElse(why))
                + " (exit " + code + ")");
    }
}
