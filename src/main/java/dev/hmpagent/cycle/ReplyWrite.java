package dev.hmpagent.cycle;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.store.StoreException;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Writes a tick's reply; one the file could not take (full, locked) is kept in memory and written by a later tick
 * without asking the LLM again, unless a halt came after it was made: the halt drops it. Tick thread only.
 */
public final class ReplyWrite {
    /**
     * A reply written ({@code written}), or kept for a later tick, the tick ending with {@code kept}.
     */
    record Result(TickWriter.Thought thought, TickWriter.Written written, TickResult kept) {
        static Result kept(TickWriter.Thought thought, TickResult kept) {
            return new Result(thought, null, kept);
        }

        boolean isWritten() { return written != null; }
    }

    private final TickWriter writer;
    private final Retries retries;
    private final EventSink events;

    /** A reply the file could not take, and the halts when it was made (a halt since then drops it); or null. */
    private Unwritten unwritten;

    private record Unwritten(TickWriter.Thought thought, StopSignal.Since since) { }

    public ReplyWrite(TickWriter writer, Retries retries, EventSink events) {
        this.writer = Objects.requireNonNull(writer, "writer");
        this.retries = Objects.requireNonNull(retries, "retries");
        this.events = Objects.requireNonNull(events, "events");
    }

    /** Writes the reply of the tick that began at {@code halt}; a file that refuses the write keeps it. */
    Result write(TickWriter.Thought thought, StopSignal.Since halt) {
        try {
            return new Result(thought, writer.writeThought(thought), null);
        } catch (StoreException e) {
            if (!e.writeFailure()) throw e;
            unwritten = new Unwritten(thought, halt);
            return Result.kept(thought, retries.keptUnwritten(thought.tickId(), e));
        }
    }

    /**
     * Tries again to write the reply the file could not take (dropped if a halt came since); empty when none waits.
     */
    Optional<Result> writeKept(Instant now) {
        if (unwritten != null && unwritten.since().halted()) dropAfterHalt();
        if (unwritten == null) return Optional.empty();
        TickWriter.Thought thought = unwritten.thought();
        TickWriter.Written written;
        try {
            written = writer.writeThought(thought);
        } catch (StoreException e) {
            if (e.damaged()) return Optional.of(Result.kept(thought, retries.damaged(e)));
            return Optional.of(Result.kept(thought, retries.keptUnwritten(thought.tickId(), e)));
        } catch (RuntimeException e) {
            unwritten = null;   // not a file that is full or busy: this reply will never fit; let the tick fail
            return Optional.of(Result.kept(thought, retries.tickFailed(thought.tickId(), now, thought.reason(), e)));
        }
        unwritten = null;
        events.emit(new AgentEvent.Info("the file takes writes again: the reply of tick " + thought.tickId()
                + " is stored"));
        return Optional.of(new Result(thought, written, null));
    }

    private void dropAfterHalt() {
        events.emit(new AgentEvent.Info("the halt dropped the reply of tick " + unwritten.thought().tickId()
                + " that waited to be written: none of its commands runs, and its messages stay unread"));
        unwritten = null;
        retries.forget();
    }
}
