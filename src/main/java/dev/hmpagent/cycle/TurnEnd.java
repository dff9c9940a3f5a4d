package dev.hmpagent.cycle;

import dev.hmpagent.commands.FormatSlips;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.ProcessStatus;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * No silent stop (issue 33): a task goes on until the model answers the person, goes idle, or says it is done (a
 * reply with no command). Once every command of a reply has run and none of them ended its turn, the reply's results
 * wake the LLM, even the effect-only successes that wake nothing by themselves: a model that made one
 * {@code file_write} a reply was never asked for its second edit. A model that never ends its turn is bounded like any
 * run of calls, by the safety rules and the budget, not by a cap of its own. Tick thread only.
 */
public final class TurnEnd {
    /** The commands that end a turn when they succeed: a message to a person, the answer to a note, an idle. */
    static final Set<String> ENDING = Set.of("send_message", "note_reply", "idle");

    private final ProcessLogDao processLog;
    private final FormatSlips slips;

    public TurnEnd(ProcessLogDao processLog, FormatSlips slips) {
        this.processLog = Objects.requireNonNull(processLog, "processLog");
        this.slips = Objects.requireNonNull(slips, "slips");
    }

    /** Every command of {@code tickId}'s reply has run (no halt, no write the file refused); returns rows woken. */
    int ran(long tickId) {
        // a block that could not be read once more than the agent corrects: it waits for the person (FormatSlips)
        if (slips.gaveUp(tickId)) return 0;
        List<ProcessRow> rows = processLog.byTick(tickId);
        if (ended(rows)) return 0;
        return processLog.wakeTick(tickId);
    }

    /**
     * Whether the rows of one reply end its turn: one that ended it succeeded, or one is still running (its own result
     * wakes the LLM when it arrives, and the others are shown beside it). Rows born closed ({@code process_close})
     * show nothing: a reply of those alone has no result to go on with, and ends like a reply with no command.
     */
    static boolean ended(List<ProcessRow> rows) {
        if (rows.isEmpty()) return true;
        for (ProcessRow r : rows) {
            ProcessStatus status = ProcessStatus.fromColumn(r.status());
            if (status.inFlight()) return true;
            if (status == ProcessStatus.OK && ENDING.contains(r.name())) return true;
        }
        return false;
    }
}
