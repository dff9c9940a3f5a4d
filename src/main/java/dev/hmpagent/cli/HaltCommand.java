package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.safety.SafetyGate;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.store.HaltFlag;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.StoreException;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code agent halt}: a human stop, priority 0. The file's safety state becomes STOPPED(halt) at
 * once (audited, persisted: a restarted agent stays stopped); a running agent cancels its LLM call
 * within one poll of its control watcher ({@link StopSignal#POLL_MILLIS}) and thinks again only after
 * {@code agent unlock}.
 */
@Command(name = "halt", mixinStandardHelpOptions = true,
        description = {"Stop the agent now; it stays stopped, across restarts, until `agent unlock`.",
                "Cancels the LLM call in flight and runs none of that reply's commands.",
                "Works with or without a running agent."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent halt --reason \"spending tokens on a dead end\"",
                "  agent --db ~/agents/ops.db halt"})
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
            SafetyControl.Change o;
            try {
                o = new SafetyControl(store).halt(reason, Requester.thisProcess());
            } catch (StoreException e) {
                if (!e.writeFailure()) throw e;
                return flag(db, e);
            }
            if (o.result() == SafetyControl.Result.ALREADY) {
                say(db.getFileName() + " was already " + SafetyGate.describe(o.after(),
                        launch().clock().withZone(StatusCommand.zone(launch().env()))));
            } else {
                say("halted: " + db.getFileName() + " is " + o.after().label() + " (was " + o.before().label()
                        + "); a running agent cancels its LLM call within "
                        + StopSignal.POLL_MILLIS + " ms, and `agent unlock` resumes it");
            }
        }
        return ExitCodes.OK;
    }

    /** The file cannot take the halt now: raise the flag beside it, which a running agent obeys just the same. */
    private int flag(Path db, StoreException why) {
        HaltFlag flag = new HaltFlag(db);
        flag.raise(reason, Requester.thisProcess());
        say("halted: " + db.getFileName() + " could not be written (" + why.getMessage() + "), so the halt is in "
                + flag.file().getFileName() + "; a running agent obeys it within "
                + StopSignal.POLL_MILLIS + " ms and records it in the file once it"
                + " can, and `agent unlock` resumes it");
        return ExitCodes.OK;
    }
}
