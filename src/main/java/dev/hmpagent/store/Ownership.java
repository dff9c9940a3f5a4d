package dev.hmpagent.store;

import dev.hmpagent.store.StoreException.Kind;
import java.util.List;
import java.util.Set;

/**
 * Whether an SQLite file is hmp-agent's, decided on a read-only connection before anything is written to it
 * (not even the switch to WAL, which rewrites parts of the file's header). Ours: {@link #APPLICATION_ID} in
 * the header (set by migration V014), or, for files made before V014, no application id and our first
 * tables; a file with no tables at all is empty and ours to fill. Anything else is another program's and is
 * refused with Kind SCHEMA, byte for byte untouched.
 */
final class Ownership {
    /** "HMPA", in {@code PRAGMA application_id}. */
    static final int APPLICATION_ID = 0x484D5041;
    /** Tables every hmp-agent file has had since V001 (with the {@code schema_version} the migrator keeps). */
    private static final Set<String> FIRST_TABLES = Set.of("schema_version", "notes", "process_log", "agent_log",
            "runner_lock");

    private Ownership() { }

    /** Throws unless the file {@code store} has open is hmp-agent's or empty; reads only. */
    static void requireOurs(Store store) {
        long id = store.queryLong("PRAGMA application_id");
        if (id == APPLICATION_ID) return;
        List<String> tables = store.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE"
                + " 'sqlite_%' ORDER BY name", rs -> rs.getString(1));
        if (tables.isEmpty() && id == 0) return;
        if (id == 0 && tables.containsAll(FIRST_TABLES)) return;
        String what = id != 0 ? "application_id 0x" + Long.toHexString(id) : "tables " + listed(tables);
        throw new StoreException(Kind.SCHEMA, store.path() + " is another program's SQLite file (" + what
                + "), not hmp-agent's: it was left untouched; choose another file with --db");
    }

    private static String listed(List<String> tables) {
        List<String> some = tables.subList(0, Math.min(4, tables.size()));
        return String.join(", ", some) + (tables.size() > some.size() ? " and " + (tables.size() - some.size())
                + " more" : "");
    }
}
