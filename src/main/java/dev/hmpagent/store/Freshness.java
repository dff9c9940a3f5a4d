package dev.hmpagent.store;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a table's rows may have changed since a reader of this connection last looked (issue 36): a read a tick
 * repeats (the safety state and counters, the prompt's small reads: {@link Store#queryKept}; the runtime settings as a
 * map: {@link Kept}) is kept with its {@link Stamp} and asked again only when the stamp moved. A stamp moves with every
 * write of this connection to the table (an INSERT, UPDATE, DELETE or REPLACE names it), with any write whose table it
 * cannot tell, any rollback on this connection (a savepoint's included: what a reader saw inside it may be gone), any
 * script, and any commit of another connection or process ({@code PRAGMA data_version}, asked at each {@link #stamp}).
 * One connection is used by one thread at a time, as the whole {@link Store} is.
 */
final class Freshness {
    private static final Pattern WRITE = Pattern.compile(
            "^\\s*(?:INSERT(?:\\s+OR\\s+\\w+)?\\s+INTO|REPLACE\\s+INTO|UPDATE(?:\\s+OR\\s+\\w+)?|DELETE\\s+FROM)\\s+[\"`\\[]?(\\w+)",
            Pattern.CASE_INSENSITIVE);

    /** What a reader compares: equal stamps mean no write since (the writes of its tables, summed: each only grows). */
    record Stamp(long epoch, long writes) { }

    private final Map<String, Long> writes = new HashMap<>();
    /** Tables whose writes may write others (a trigger, a foreign key's action): a write of one moves everything. */
    private Set<String> fanOut = Set.of();
    private long epoch;
    private long dataVersion = Long.MIN_VALUE;
    /** The write transaction in which {@code dataVersion} was last asked (0: outside one). */
    private long askedIn;
    /** The open look ({@link Store#oneLook}; 0: none), the looks opened so far, and the look it was last asked in. */
    private long look;
    private long looks;
    private long askedInLook;

    /** This connection ran {@code sql}, which may have written. */
    synchronized void wrote(String sql) {
        wrote(sql, -1);
    }

    /**
     * This connection ran {@code sql}, which changed {@code changed} rows (-1: not known). A write that changed no
     * row of its table moves nothing (an upsert that found the value already there, an UPDATE or DELETE that matched
     * nothing), unless the table is one whose writes reach others: a BEFORE trigger runs even for a row OR IGNORE
     * then leaves out.
     */
    synchronized void wrote(String sql, long changed) {
        Matcher m = WRITE.matcher(sql);
        if (!m.find()) {
            epoch++;
            return;
        }
        String table = m.group(1).toLowerCase(Locale.ROOT);
        if (fanOut.contains(table)) {
            epoch++;
        } else if (changed == 0) {
            return;
        }
        writes.merge(table, 1L, Long::sum);
    }

    /** The tables (lower case) a write of which may write other tables too; see {@link #wrote}. */
    synchronized void fanOut(Set<String> tables) {
        fanOut = Set.copyOf(tables);
    }

    /** Opens a look; 0 when one is open already (the outer one goes on, and closing 0 does nothing). */
    synchronized long openLook() {
        if (look != 0) return 0;
        look = ++looks;
        return look;
    }

    synchronized void closeLook(long id) {
        if (id != 0 && look == id) look = 0;
    }

    /** Anything may have changed: a rollback, a script, a failed statement. */
    synchronized void anything() {
        epoch++;
    }

    /**
     * Where {@code table} stands now; {@code dataVersion} is the connection's {@code PRAGMA data_version}, asked once
     * per write transaction ({@code writing}, 0 outside one): while this connection holds the write lock no other
     * commits.
     */
    synchronized Stamp stamp(String table, long writing, LongSupplier dataVersion) {
        return stamp(List.of(table), writing, dataVersion);
    }

    /** Where {@code tables} stand together now: see {@link #stamp(String, long, LongSupplier)}. */
    synchronized Stamp stamp(List<String> tables, long writing, LongSupplier dataVersion) {
        boolean ask = writing != 0 ? writing != askedIn : look == 0 || askedInLook != look;
        if (ask) {
            long now = dataVersion.getAsLong();
            askedIn = writing;
            askedInLook = writing == 0 ? look : 0;
            if (now != this.dataVersion) {
                this.dataVersion = now;
                epoch++;
            }
        }
        long written = 0;
        for (String table : tables) written += writes.getOrDefault(table, 0L);
        return new Stamp(epoch, written);
    }

    /** A value read from one table, read again only when the table's {@link Stamp} moved. */
    static final class Kept<T> {
        private final Store store;
        private final String table;
        private Stamp stamp;
        private T value;

        Kept(Store store, String table) {
            this.store = store;
            this.table = table;
        }

        synchronized T get(Supplier<T> read) {
            Stamp now = store.stamp(table);
            if (!now.equals(stamp)) {
                stamp = null;   // a read that throws keeps nothing
                value = read.get();
                stamp = now;
            }
            return value;
        }
    }
}
