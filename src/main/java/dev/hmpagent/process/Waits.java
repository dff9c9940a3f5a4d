package dev.hmpagent.process;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Bounded waits of the process runner: each gives up after its time, and an interrupt ends it early. */
final class Waits {
    private Waits() {
    }

    /** Waits for the process to exit; true if it did within the time. An interrupt ends the wait early. */
    static boolean waitFor(Process process, Duration timeout) {
        try {
            return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    static boolean await(CountDownLatch latch, Duration timeout) {
        try {
            return latch.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return latch.getCount() == 0;
        }
    }

    static void await(CompletableFuture<?> future, Duration timeout) {
        try {
            future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // bounded: go on with what is known
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
