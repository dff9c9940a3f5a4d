package dev.hmpagent.process;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/** One process the {@link ProcessRunner} started, and how far its ending has gone. */
final class ChildProcess {
    /** How a process ends, decided once by whoever gets there first: its watcher or a stop. */
    record Ending(ProcessEnd status, String reason) {}

    /** The process exited by itself; its exit code decides OK or ERROR. */
    static final Ending EXITED = new Ending(null, "exited");

    final ProcessSpec spec;
    final Process process;
    final Instant startedAt;
    final String markerEntry;
    final Consumer<ProcessResult> onFinish;
    final TailBuffer output;
    final AtomicReference<Ending> ending = new AtomicReference<>();
    final CompletableFuture<Void> treeDead = new CompletableFuture<>();
    final CountDownLatch outputClosed = new CountDownLatch(1);
    /** Counted down once its onFinish has returned. */
    final CountDownLatch reported = new CountDownLatch(1);

    ChildProcess(ProcessSpec spec, Process process, Instant startedAt, String markerEntry,
                 Consumer<ProcessResult> onFinish, TailBuffer output) {
        this.spec = spec;
        this.process = process;
        this.startedAt = startedAt;
        this.markerEntry = markerEntry;
        this.onFinish = onFinish;
        this.output = output;
    }

    ProcessTreeKiller.Tree tree() {
        return new ProcessTreeKiller.Tree(process.toHandle(), markerEntry);
    }
}
