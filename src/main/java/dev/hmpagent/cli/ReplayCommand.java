package dev.hmpagent.cli;

import dev.hmpagent.config.SafetySection;
import dev.hmpagent.runtime.Launch;
import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.safety.Guides;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code agent replay TRACE}: the safety rules' what-if over a recorded task ({@link Replay}), with the config as it
 * stands (agent.toml, the environment, {@code --set safety.…=N}); no LLM call, no command run, the agent's file
 * untouched. Exit 0 when the task runs to its end, 7 when the rules would have stopped it (or left it resting at its
 * end), 2 for a trace it cannot read, naming the line.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Run the safety rules over a recorded task: where each would alert or stop, and why.",
                "TRACE: JSON lines, one reply a line (README, section Traces); agent log --export-trace writes one.",
                "No LLM is asked and no command runs. Exit 7 when the rules would have stopped the task."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent log --export-trace > task.jsonl && agent replay task.jsonl",
                "  agent replay --set safety.repeat_lock_at=8 task.jsonl  # another limit",
                "  agent log --export-trace --task 2 | agent replay -"})
final class ReplayCommand extends Subcommand {
    @Parameters(paramLabel = "TRACE", description = "The trace file, or - for standard input.")
    String trace;

    ReplayCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() {
        SafetySection safety = config().safety();
        List<Trace.Line> lines;
        try (BufferedReader in = "-".equals(trace) ? new BufferedReader(new InputStreamReader(System.in,
                StandardCharsets.UTF_8)) : Files.newBufferedReader(Path.of(trace), StandardCharsets.UTF_8)) {
            lines = Trace.read(in);
        } catch (NoSuchFileException e) {
            return unreadable("no such file " + trace + "; agent log --export-trace > FILE writes one");
        } catch (IOException e) {
            return unreadable("cannot read " + trace + ": " + e.getMessage());
        } catch (Trace.BadLine e) {
            return unreadable(trace + ": " + e.getMessage());
        }
        Replay.Verdicts v = new Replay(Wiring.safetyLimits(config()), Guides.byName(safety.guide())).run(lines);
        v.lines().forEach(this::say);
        say(summary(v));
        return v.stopped() ? ExitCodes.STOPPED : ExitCodes.OK;
    }

    /** "replay: 5 steps; first alert at step 3; SAFETY_LOCKOUT at step 5" and the like. */
    static String summary(Replay.Verdicts v) {
        String alert = v.firstAlert() == 0 ? "no alert" : "first alert at step " + v.firstAlert();
        String end = v.stopped() ? v.end() + " after step " + v.stopStep()
                : v.stopStep() == 0 ? "runs to its end" : "rested after step " + v.stopStep() + ", then ran to its end";
        return "replay: " + v.steps() + (v.steps() == 1 ? " step; " : " steps; ") + alert + "; " + end;
    }

    private int unreadable(String message) {
        err().println("agent: " + message);
        err().flush();
        return ExitCodes.USAGE;
    }
}
