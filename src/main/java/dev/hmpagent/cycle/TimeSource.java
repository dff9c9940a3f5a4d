package dev.hmpagent.cycle;

/**
 * Where the tick loop reads time and waits for it: {@link System#nanoTime()} and {@code LockSupport}
 * for real (a deadline park is late by ≈ 0.2 ms p50 here), a fake clock in tests, which never sleep.
 */
public interface TimeSource {
    /** A monotonic reading in nanoseconds, like {@link System#nanoTime()}: compare two by subtraction. */
    long nanoTime();

    /**
     * Parks the calling thread until {@link #nanoTime()} reaches {@code deadline}, until {@link #unpark}
     * is called for it, or spuriously: callers look at their conditions again when it returns.
     */
    void parkUntil(long deadline);

    /** Ends the {@link #parkUntil} of {@code thread} at once, or its next one if it is not parked yet. */
    void unpark(Thread thread);

    /** The real time of this machine. */
    static TimeSource system() {
        return SystemTime.INSTANCE;
    }
}
