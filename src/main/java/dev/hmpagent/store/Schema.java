package dev.hmpagent.store;

import java.util.HashSet;
import java.util.Set;

/**
 * What the kept reads need to know of one connection's file ({@link KeptReads}, {@link Freshness}): its tables, and
 * which writes reach beyond the table they name. Read at the first kept read after opening or a schema change.
 */
final class Schema {
    private final Store store;
    private final Freshness freshness;
    /** The file's tables (lower case); empty when the file has a view; null until read. */
    private Set<String> tables;

    Schema(Store store, Freshness freshness) {
        this.store = store;
        this.freshness = freshness;
    }

    /**
     * The file's tables, read with the tables whose writes write others (given to {@link Freshness#fanOut}); empty
     * when the file has a view (a read naming one reads tables its SQL does not name), so that no read is kept.
     */
    Set<String> tables() {
        if (tables == null) {
            Set<String> all = Set.copyOf(store.query("SELECT lower(name) FROM sqlite_master WHERE type = 'table'",
                    rs -> rs.getString(1)));
            freshness.fanOut(fanOut(all));
            tables = store.queryLong("SELECT count(*) FROM sqlite_master WHERE type = 'view'") > 0 ? Set.of() : all;
        }
        return tables;
    }

    /** A statement changed the schema: read again at the next use. */
    void changed() {
        tables = null;
    }

    /**
     * The tables (lower case) whose writes may write other tables: each table a trigger is on (whatever its body does)
     * and each table a foreign key with an action ({@code ON DELETE CASCADE}, {@code SET NULL}, ...) refers to.
     */
    private Set<String> fanOut(Set<String> all) {
        Set<String> out = new HashSet<>(store.query("SELECT lower(tbl_name) FROM sqlite_master WHERE type = 'trigger'",
                rs -> rs.getString(1)));
        for (String table : all) {
            // a table whose key refers to itself (a note's reply_to) writes only itself
            out.addAll(store.query("SELECT lower(\"table\") FROM pragma_foreign_key_list(?) WHERE lower(\"table\") <> ?"
                    + " AND (on_delete NOT IN ('NO ACTION', 'RESTRICT') OR on_update NOT IN ('NO ACTION', 'RESTRICT'))",
                    rs -> rs.getString(1), table, table));
        }
        out.remove(null);
        return Set.copyOf(out);
    }
}
