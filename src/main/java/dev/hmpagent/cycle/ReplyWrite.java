package dev.hmpagent.cycle;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.StoreException;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Writes a tick's reply; one the file could not take (full, locked) is kept in memory and written by a later tick
 * without asking the LLM again, unless a halt came after it was made: the halt drops it. Tick thread only.
 */
final class ReplyWrite {
    private final TickWriter writer;
    private final Retries retries;
    private final AfterWrite after;
    private final MainCall call;
    private final AgentLogDao agentLog;
    private final EventSink events;

    /** A reply the file could not take, or null. */
    private TickWriter.Thought unwritten;
    /** The halts when {@link #unwritten} was made: a halt since then drops it. */
    private StopSignal.Since unwrittenSince;

    ReplyWrite(TickWriter writer, Retries retries, AfterWrite after, MainCall call, EventSink events) {
        this.writer = Objects.requireNonNull(writer, "writer");
        this.retries = Objects.requireNonNull(retries, "retries");
        this.after = Objects.requireNonNull(after, "after");
        this.call = Objects.requireNonNull(call, "call");
        this.agentLog = writer.agentLog();
        this.events = Objects.requireNonNull(events, "events");
    }

    /** Writes the reply of the tick that began at {@code halt}; a file that refuses the write keeps it. */
    TickResult write(TickWriter.Thought thought, StopSignal.Since halt) {
        TickWriter.Written written;
        try {
            written = writer.writeThought(thought);
        } catch (StoreException e) {
            if (!e.writeFailure()) throw e;
            unwritten = thought;
            unwrittenSince = halt;
            return retries.keptUnwritten(thought.tickId(), e);
        }
        TickResult done = after.committed(thought, written, halt);
        call.recordNotices(thought.tickId(), agentLog);
        return done;
    }

    /**
     * Tries again to write the reply the file could not take (dropped if a halt came since); empty when none waits.
     * {@code halt} is when the tick trying began.
     */
    Optional<TickResult> writeKept(Instant now, StopSignal.Since halt) {
        if (unwritten != null && unwrittenSince.halted()) dropAfterHalt();
        if (unwritten == null) return Optional.empty();
        TickWriter.Thought thought = unwritten;
        TickWriter.Written written;
        try {
            written = writer.writeThought(thought);
        } catch (StoreException e) {
            if (e.damaged()) return Optional.of(retries.damaged(e));
            return Optional.of(retries.keptUnwritten(thought.tickId(), e));
        } catch (RuntimeException e) {
            unwritten = null;   // not a file that is full or busy: this reply will never fit; let the tick fail
            return Optional.of(retries.tickFailed(thought.tickId(), now, thought.reason(), e));
        }
        unwritten = null;
        events.emit(new AgentEvent.Info("the file takes writes again: the reply of tick " + thought.tickId()
                + " is stored"));
        TickResult done = after.committed(thought, written, halt);
        call.recordNotices(thought.tickId(), agentLog);
        return Optional.of(done);
    }

    private void dropAfterHalt() {
        events.emit(new AgentEvent.Info("the halt dropped the reply of tick " + unwritten.tickId()
                + " that waited to be written: none of its commands runs, and its messages stay unread"));
        unwritten = null;
        retries.forget();
    }
}
