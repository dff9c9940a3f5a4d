package dev.hmpagent.cli;

import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.store.HaltFlag;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code agent unlock}: a human releases a stop. STOPPED(halt) (and, later, a safety lockout or an
 * error pause) becomes ACTIVE, audited; STOPPED(budget|quota) is refused with exit 7, since only
 * more budget releases it. On an ACTIVE agent it says so and exits 0.
 */
@Command(name = "unlock", mixinStandardHelpOptions = true,
        description = {"Let a stopped agent think again (a person's decision, audited).",
                "Exit code 0: active now (or already was); 7: this stop cannot be released by unlock."})
final class UnlockCommand extends Subcommand {
    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, for the audit.")
    String reason;

    UnlockCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() {
        Path db = existingDb();
        HaltFlag flag = new HaltFlag(db);
        if (flag.raised()) {
            flag.lower();   // a halt that could not be written to the file: lifting it needs no free space either
            say("lifted the halt in " + flag.file().getFileName());
        }
        try (Store store = Store.open(db, launch().clock())) {
            SafetyControl.Outcome o = new SafetyControl(store).unlock(reason, Requester.thisProcess());
            switch (o.result()) {
                case ALREADY -> say(db.getFileName() + " is already ACTIVE: nothing to unlock");
                case MOVED -> say("unlocked: " + db.getFileName() + " is ACTIVE again (was " + o.before().label()
                        + "); a running agent resumes at its next frame (in the REPL: at once)");
                case REFUSED -> {
                    err().println("agent: " + db.getFileName() + " is " + o.before().label() + " since "
                            + o.before().since() + ": unlock does not release a " + o.before().reason()
                            .map(r -> r.columnName()).orElse("") + " stop; raise the limit in agent.toml and start again");
                    err().flush();
                    return ExitCodes.STOPPED;
                }
            }
        }
        return ExitCodes.OK;
    }
}
