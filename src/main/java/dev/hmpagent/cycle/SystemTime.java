package dev.hmpagent.cycle;

import java.util.concurrent.locks.LockSupport;

/** {@link TimeSource} over {@link System#nanoTime()} and {@link LockSupport}; stateless. */
final class SystemTime implements TimeSource {
    static final SystemTime INSTANCE = new SystemTime();

    private SystemTime() { }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public void parkUntil(long deadline) {
        long left = deadline - System.nanoTime();
        if (left > 0) LockSupport.parkNanos(this, left);
    }

    @Override
    public void unpark(Thread thread) {
        LockSupport.unpark(thread);
    }
}
