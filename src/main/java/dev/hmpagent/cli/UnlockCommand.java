package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.safety.StopReason;
import dev.hmpagent.store.HaltFlag;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.SafetyDao;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.Store;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code agent unlock}: a human releases a stop. STOPPED(halt), SAFETY_LOCKOUT and ERROR_PAUSED become ACTIVE,
 * audited, with the behavioural counters reset and a new task started. STOPPED(budget) needs
 * {@code --add-budget N}: the tokens are added and the task goes on. STOPPED(quota) needs a config change.
 * A refusal exits 7; on an ACTIVE agent it says so and exits 0.
 */
@Command(name = "unlock", mixinStandardHelpOptions = true,
        description = {"Let a stopped agent think again (a person's decision, audited).",
                "Exit code 0: active now (or already was); 2: bad usage; 7: this stop cannot be released so."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent unlock --reason \"read the loop; carry on\"",
                "  agent unlock --add-budget 50000       # a budget stop: 50k more tokens"})
final class UnlockCommand extends Subcommand {
    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, for the audit.")
    String reason;

    @Option(names = "--add-budget", paramLabel = "N",
            description = "Add N tokens to the task's budget (releases a budget stop; N at least 1).")
    Long addBudget;

    UnlockCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() {
        if (addBudget != null && addBudget < 1) {
            throw new ParameterException(spec.commandLine(), "--add-budget " + addBudget
                    + " must be at least 1 (tokens to add to the budget)");
        }
        Path db = existingDb();
        HaltFlag flag = new HaltFlag(db);
        try (Store store = Store.open(db, launch().clock())) {
            // check first, then act: a refused unlock changes nothing, the halt flag included
            Optional<String> fromAgent = startedByTheAgent(store);
            if (fromAgent.isPresent()) {
                return refuse(store, fromAgent.get());
            }
            if (flag.raised()) {
                // a halt that could not be written to the file: lifting it needs no free space (only a read above)
                flag.lower();
                say("lifted the halt in " + flag.file().getFileName());
            }
            SafetyControl control = new SafetyControl(store);
            SafetyControl.Change o = control.unlock(reason, Requester.thisProcess(), addBudget == null ? 0 : addBudget);
            return report(db, control, o);
        }
    }

    /** A process the agent started asked: refuse, audit it, and change nothing. */
    private int refuse(Store store, String why) {
        // only a person unlocks: a process the agent started (its shell, a script) never may
        SafetyDao safety = store.tables().safety();
        SafetyDao.Row now = safety.current();
        String label = new SafetyControl(store).current().label();   // as every other audit row names a state
        Requester who = Requester.thisProcess();
        store.inTransaction(() -> safety.audit(new SafetyDao.Audit(launch().clock().instant(), "unlock_refused",
                label, label, now.reason(), why, who.pid(), who.user(), who.host())));
        err().println("agent: unlock refused: " + why + "; only a person may unlock the agent"
                + " (the attempt is audited)");
        err().flush();
        return ExitCodes.STOPPED;
    }

    /** What the unlock did, in words; exit 7 when the state refused it. */
    private int report(Path db, SafetyControl control, SafetyControl.Change o) {
        switch (o.result()) {
            case ALREADY -> say(db.getFileName() + " is already ACTIVE: nothing to unlock"
                    + (addBudget == null ? "" : "; no budget added"));
            case MOVED -> {
                say("unlocked: " + db.getFileName() + " is ACTIVE again (was " + o.before().label()
                        + "); a running agent resumes at its next frame (in the REPL: at once)");
                if (o.budgetAdded() > 0) {
                    say("added " + o.budgetAdded() + " tokens to the budget (" + control.extraBudget()
                            + " added in all)" + (o.before().reason().equals(Optional.of(StopReason.BUDGET))
                            ? "; the task goes on" : ""));
                }
            }
            case REFUSED -> {
                err().println("agent: " + refusal(db, o.before(), dev.hmpagent.text.ShortTime.of(o.before().since(),
                        launch().clock().instant(), StatusCommand.zone(launch().env()))));
                err().flush();
                return ExitCodes.STOPPED;
            }
        }
        return ExitCodes.OK;
    }

    /**
     * Why this process counts as the agent's own (its marker in the environment, or the running agent among its
     * ancestors), or empty for a person's.
     */
    private Optional<String> startedByTheAgent(Store store) {
        if (launch().env().containsKey(dev.hmpagent.process.ProcessRunner.MARKER_VARIABLE)) {
            return Optional.of("it runs in a process the agent started ("
                    + dev.hmpagent.process.ProcessRunner.MARKER_VARIABLE + " is set)");
        }
        Optional<RunnerLock.Holder> agent = RunnerLock.forThisProcess(store).holder();
        if (agent.isEmpty()) return Optional.empty();
        for (Optional<ProcessHandle> p = ProcessHandle.current().parent(); p.isPresent(); p = p.get().parent()) {
            if (p.get().pid() == agent.get().pid()) {
                return Optional.of("it descends from the running agent (pid " + agent.get().pid() + ")");
            }
        }
        return Optional.empty();
    }

    /** One line: the state, since when (local, short: {@code since}), its reason, and what releases it instead. */
    private static String refusal(Path db, SafetyStatus before, String since) {
        boolean budget = before.reason().equals(Optional.of(StopReason.BUDGET));
        String why = before.detail().isBlank()
                ? (budget ? "the token budget is spent" : "the quota is spent")
                : before.detail().strip().replaceAll("\\s*\\R\\s*", " ");
        String stop = db.getFileName() + " is " + before.label() + " since " + since + ": " + why;
        if (budget) {
            return stop + "; run agent unlock --add-budget N (tokens) or raise safety.token_budget in agent.toml";
        }
        return stop + "; unlock does not release a " + before.reason().map(StopReason::columnName).orElse("")
                + " stop: it needs a config change (agent.toml), then start the agent again";
    }
}
