package dev.hmpagent.store;

/**
 * How a {@link Store} is opened.
 *
 * @param busyTimeoutMs      how long a statement waits for another connection's lock before failing BUSY
 * @param quickCheckMaxBytes files up to this size get {@code PRAGMA quick_check(1)} at open (≈ 45 ms for
 *                           50 MB in the page cache, ≈ 850 ms from a cold disk); bigger ones only have
 *                           their schema read
 */
record OpenOptions(int busyTimeoutMs, long quickCheckMaxBytes) {
    static final OpenOptions DEFAULT = new OpenOptions(Store.BUSY_TIMEOUT_MS, 64L * 1024 * 1024);

    OpenOptions withBusyTimeoutMs(int ms) { return new OpenOptions(ms, quickCheckMaxBytes); }

    OpenOptions withQuickCheckMaxBytes(long bytes) { return new OpenOptions(busyTimeoutMs, bytes); }
}
