package dev.hmpagent.cli;

import dev.hmpagent.cycle.SafetyGate;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code agent halt}: a human stop, priority 0. The file's safety state becomes STOPPED(halt) at
 * once (audited, persisted: a restarted agent stays stopped); a running agent cancels its LLM call
 * within a few tens of milliseconds and thinks again only after {@code agent unlock}.
 */
@Command(name = "halt", mixinStandardHelpOptions = true,
        description = {"Stop the agent now: cancels its LLM call in flight, runs none of that reply's commands,",
                "and keeps it stopped (across restarts) until `agent unlock`. Works with or without a running agent."})
final class HaltCommand extends Subcommand {
    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, for the audit and for `agent status`.")
    String reason;

    HaltCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() {
        Path db = existingDb();
        try (Store store = Store.open(db, launch().clock())) {
            SafetyControl.Outcome o = new SafetyControl(store).halt(reason, Requester.thisProcess());
            if (o.result() == SafetyControl.Result.ALREADY) {
                say(db.getFileName() + " was already " + SafetyGate.describe(o.after()));
            } else {
                say("halted: " + db.getFileName() + " is " + o.after().label() + " (was " + o.before().label()
                        + "); a running agent cancels its LLM call within 25 ms, and `agent unlock` resumes it");
            }
        }
        return ExitCodes.OK;
    }
}
