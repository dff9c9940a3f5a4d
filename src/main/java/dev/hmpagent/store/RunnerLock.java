package dev.hmpagent.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.LongPredicate;

/**
 * Lets one agent process at a time run the cycle on a file: a single {@code runner_lock} row
 * with pid, host, start time and a heartbeat. A holder whose pid is dead (same host) or whose
 * heartbeat is older than {@code staleAfter} is taken over.
 */
public final class RunnerLock {

    /** Who holds the file. */
    public record Holder(long pid, String host, String token, Instant startedAt, Instant heartbeatAt) { }

    /** Thrown when a live agent already holds the file. */
    public static final class HeldException extends RuntimeException {
        private final transient Holder holder;

        HeldException(Store store, Holder holder, Instant now) {
            super(store.path().getFileName() + " is in use by another agent: pid " + holder.pid() + " on " + holder.host()
                    + " since " + holder.startedAt() + " (last heartbeat "
                    + Duration.between(holder.heartbeatAt(), now).toSeconds() + " s ago); stop that agent first, "
                    + "or choose another file with --db");
            this.holder = holder;
        }

        public Holder holder() { return holder; }
    }

    private final Store store;
    private final long pid;
    private final String host;
    private final LongPredicate pidAlive;
    private final Duration staleAfter;
    private final String token;

    public RunnerLock(Store store, long pid, String host, LongPredicate pidAlive, Duration staleAfter) {
        this(store, pid, host, pidAlive, staleAfter, UUID.randomUUID().toString());
    }

    private RunnerLock(Store store, long pid, String host, LongPredicate pidAlive, Duration staleAfter, String token) {
        this.store = Objects.requireNonNull(store, "store");
        this.pid = pid;
        this.host = Objects.requireNonNull(host, "host");
        this.pidAlive = Objects.requireNonNull(pidAlive, "pidAlive");
        this.staleAfter = Objects.requireNonNull(staleAfter, "staleAfter");
        this.token = token;
    }

    /** The same lock seen through another connection (another thread's Store). */
    public RunnerLock on(Store other) {
        return new RunnerLock(other, pid, host, pidAlive, staleAfter, token);
    }

    /** A lock for this process, with the real pid check and a 30 s stale heartbeat. */
    public static RunnerLock forThisProcess(Store store) {
        return new RunnerLock(store, ProcessHandle.current().pid(), hostName(),
                p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false), Duration.ofSeconds(30));
    }

    /**
     * Takes the file, or throws {@link HeldException} naming the live holder.
     *
     * @return the stale holder that was taken over, if there was one
     */
    public Optional<Holder> acquire() {
        return store.inTransaction(() -> {
            Instant now = store.clock().instant();
            Optional<Holder> current = holder();
            if (current.isPresent() && isLive(current.get(), now)) {
                throw new HeldException(store, current.get(), now);
            }
            store.update("DELETE FROM runner_lock");
            store.update("INSERT INTO runner_lock(id, pid, host, token, started_at, heartbeat_at) VALUES (1, ?, ?, ?, ?, ?)",
                    pid, host, token, now, now);
            return current;
        });
    }

    /** Refreshes the heartbeat; false when another process has taken the file over meanwhile. */
    public boolean heartbeat() {
        return store.update("UPDATE runner_lock SET heartbeat_at = ? WHERE token = ?", store.clock().instant(), token) > 0;
    }

    /** What the running agent shows another process ({@code agent status}), published with its heartbeat. */
    public record Published(String phase, double hz, long noOpTicks) { }

    /** Refreshes the heartbeat and publishes {@code figures}; false when another process has taken the file over. */
    public boolean heartbeat(Published figures) {
        java.time.Instant now = store.clock().instant();
        return store.update("UPDATE runner_lock SET heartbeat_at = ?, phase = ?, hz = ?, noop_ticks = ?, published_at = ? "
                + "WHERE token = ?", now, figures.phase(), figures.hz(), figures.noOpTicks(), now, token) > 0;
    }

    /** The holder with what it last published, for {@code agent status}. */
    public record Seen(Holder holder, Published published, java.time.Instant publishedAt) { }

    public Optional<Seen> seen() {
        return store.queryOne("SELECT pid, host, token, started_at, heartbeat_at, phase, coalesce(hz, 0), "
                + "coalesce(noop_ticks, 0), published_at FROM runner_lock WHERE id = 1", rs -> new Seen(
                new Holder(rs.getLong(1), rs.getString(2), rs.getString(3), Instant.parse(rs.getString(4)),
                        Instant.parse(rs.getString(5))),
                new Published(rs.getString(6), rs.getDouble(7), rs.getLong(8)),
                rs.getString(9) == null ? null : Instant.parse(rs.getString(9))));
    }

    /** Whether the holder looks alive from here (its pid, on this host; its heartbeat age). */
    public boolean live(Holder h) {
        return isLive(h, store.clock().instant());
    }

    /** Whether this process still holds the file (another may have taken it over). */
    public boolean held() {
        return store.queryLong("SELECT count(*) FROM runner_lock WHERE token = ?", token) > 0;
    }

    public void release() {
        store.update("DELETE FROM runner_lock WHERE token = ?", token);
    }

    public Optional<Holder> holder() {
        return store.queryOne("SELECT pid, host, token, started_at, heartbeat_at FROM runner_lock WHERE id = 1",
                rs -> new Holder(rs.getLong(1), rs.getString(2), rs.getString(3), Instant.parse(rs.getString(4)),
                        Instant.parse(rs.getString(5))));
    }

    private boolean isLive(Holder h, Instant now) {
        if (h.host().equals(host) && !pidAlive.test(h.pid())) return false;
        return Duration.between(h.heartbeatAt(), now).compareTo(staleAfter) <= 0;
    }

    /** This machine's name, read without a DNS lookup. */
    public static String hostName() {
        try {
            String name = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/kernel/hostname")).strip();
            if (!name.isEmpty()) return name;
        } catch (java.io.IOException | RuntimeException ignored) {
            // not Linux: fall through
        }
        String env = System.getenv("HOSTNAME");
        if (env == null) env = System.getenv("COMPUTERNAME");
        return env == null || env.isBlank() ? "localhost" : env;
    }
}
