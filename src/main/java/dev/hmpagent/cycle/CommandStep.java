package dev.hmpagent.cycle;

import dev.hmpagent.commands.CommandExecutor;
import dev.hmpagent.cycle.CycleStatus.Phase;
import dev.hmpagent.safety.StopSignal;
import java.util.Objects;

/**
 * Step 4, the commands of a written reply, run by the executor outside the reply's transaction and stopped between two
 * by a halt or by the process ending; when the file refuses a write, the rest of that tick's commands wait and run
 * again before anything else. Once all ran, a reply that did not end its turn wakes the LLM again ({@link TurnEnd}).
 * Also hands in the results external commands reported (step 1).
 */
public final class CommandStep {
    private final CommandExecutor executor;
    private final StatusCell status;
    private final Retries retries;
    private final Telling telling;
    private final TurnEnd turns;

    // Tick thread only.
    /** A tick whose commands the executor could not finish (the file refused a write), or -1. */
    private long unfinishedTick = -1;

    // Any thread.
    /** The process is ending ({@link #leaving()}): a question to a person is withdrawn, the commands left wait. */
    private volatile boolean leaving;

    public CommandStep(CommandExecutor executor, StatusCell status, Retries retries, Telling telling, TurnEnd turns) {
        this.turns = Objects.requireNonNull(turns, "turns");
        this.telling = Objects.requireNonNull(telling, "telling");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.status = Objects.requireNonNull(status, "status");
        this.retries = Objects.requireNonNull(retries, "retries");
    }

    /** The loop is ending (from any thread): a question the executor is asking a person is withdrawn. */
    void leaving() {
        leaving = true;
    }

    /** The tick whose commands wait to be run again, or -1. */
    long unfinishedTick() {
        return unfinishedTick;
    }

    /**
     * Runs the pending commands of {@code tickId}, outside its transaction; a halt heard after {@code halt} (or a
     * person's in the file) stops it between two commands. When the file refuses a write, the rest wait.
     */
    void run(long tickId, String model, StopSignal.Since halt) {
        status.phase(Phase.EXECUTING);
        CommandExecutor.Executed done = executor.runPending(tickId, model, halt, () -> leaving,
                run -> telling.report(tickId, run));
        if (done.stoppedBy().isPresent()) {
            unfinishedTick = tickId;
            retries.commandsWait(tickId, done.stoppedBy().get());
        } else {
            unfinishedTick = -1;
            // every command ran: a reply that did not end its turn is followed by another call with the results
            if (!done.halted()) turns.ran(tickId);
        }
    }

    /** Writes the results external commands handed in; throws StoreException when the file refuses (they are kept). */
    void recordResults() {
        executor.recordResults(run -> telling.report(status.get().lastTickId(), run));
    }
}
