package dev.hmpagent.cycle;

import dev.hmpagent.safety.Operation;
import dev.hmpagent.safety.OperationListener;
import dev.hmpagent.store.ProcessStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Progress measured by the world, not by wording (issue 23): in front of the SafetyMonitor, told of every finished
 * operation, it notes whether a command succeeded with a result different from the last successful result of the same
 * command (type and canonical arguments), compared by {@link dev.hmpagent.safety.Fingerprint#ofProgress}, the key the
 * no-progress breaker counts: the agent's own fresh ids and the runner's timing are folded, so they are not news. A
 * command never seen to succeed before is news (a file written with new content has new arguments). Failures are
 * never progress. {@link ReplyReview} takes the fact once per reply: the reply came after news, so no judge call is
 * made for it, and the reflex's strong strategies stay off while a recent tick has it.
 *
 * <p>Held in memory: after a restart each command's first success counts as news once. Told on the tick thread
 * (which also records what the process runner hands in); synchronized all the same, as it is cheap.
 */
public final class WorldProgress implements OperationListener {
    /** Commands remembered by their last successful result; the least recently seen is forgotten first. */
    static final int REMEMBERED = 1024;

    private final OperationListener next;
    private final Map<String, String> lastSuccess = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > REMEMBERED;
        }
    };
    private boolean moved;

    /** @param next told of every operation after this, and its answer (the text the LLM sees) returned unchanged */
    public WorldProgress(OperationListener next) {
        this.next = Objects.requireNonNull(next, "next");
    }

    @Override
    public String onOperation(long tickId, Operation outcome) {
        String shown = next.onOperation(tickId, outcome);
        if (outcome.source() == Operation.Source.COMMAND && !outcome.failed()
                && ProcessStatus.fromColumn(outcome.status()) == ProcessStatus.OK) {
            synchronized (lastSuccess) {
                moved |= !outcome.progressKey().equals(lastSuccess.put(outcome.fingerprint(), outcome.progressKey()));
            }
        }
        return shown;
    }

    /** Whether a command brought news since the last call; the fact is taken (the next call starts afresh). */
    boolean take() {
        synchronized (lastSuccess) {
            boolean was = moved;
            moved = false;
            return was;
        }
    }
}
