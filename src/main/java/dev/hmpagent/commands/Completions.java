package dev.hmpagent.commands;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Results of external commands, handed from the threads that finish them to the tick thread, which writes
 * them at the start of its next iteration (HMP step 1: refresh process_log). Thread-safe.
 */
public final class Completions {
    /** One finished external command. */
    public record Done(long processLogId, CommandOutcome outcome) {
        public Done {
            Objects.requireNonNull(outcome, "outcome");
        }
    }

    private final ConcurrentLinkedQueue<Done> queue = new ConcurrentLinkedQueue<>();
    private volatile Runnable onArrival = () -> { };

    /** Called after every arrival (the tick loop's wake). */
    public void onArrival(Runnable wake) {
        this.onArrival = Objects.requireNonNull(wake, "wake");
    }

    public void add(long processLogId, CommandOutcome outcome) {
        queue.add(new Done(processLogId, outcome));
        onArrival.run();
    }

    /** Takes what arrived so far, oldest first. */
    public List<Done> drain() {
        List<Done> out = new ArrayList<>();
        for (Done d = queue.poll(); d != null; d = queue.poll()) out.add(d);
        return out;
    }

    /** Puts results back at the front (the file refused the write; the next iteration tries again). */
    public void putBack(List<Done> done) {
        List<Done> rest = drain();
        queue.addAll(done);
        queue.addAll(rest);
    }

    public boolean isEmpty() {
        return queue.isEmpty();
    }
}
