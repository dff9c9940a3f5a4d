package dev.hmpagent.store;

import java.util.HashSet;
import java.util.Set;

/** What {@link Freshness} needs to know of the file's schema: which writes reach beyond the table they name. */
final class Schema {
    private Schema() { }

    /**
     * The tables (lower case) whose writes may write other tables: each table a trigger is on (whatever its body does)
     * and each table a foreign key with an action ({@code ON DELETE CASCADE}, {@code SET NULL}, ...) refers to.
     */
    static Set<String> fanOut(Store store, Set<String> tables) {
        Set<String> out = new HashSet<>(store.query("SELECT lower(tbl_name) FROM sqlite_master WHERE type = 'trigger'",
                rs -> rs.getString(1)));
        for (String table : tables) {
            // a table whose key refers to itself (a note's reply_to) writes only itself
            out.addAll(store.query("SELECT lower(\"table\") FROM pragma_foreign_key_list(?) WHERE lower(\"table\") <> ?"
                    + " AND (on_delete NOT IN ('NO ACTION', 'RESTRICT') OR on_update NOT IN ('NO ACTION', 'RESTRICT'))",
                    rs -> rs.getString(1), table, table));
        }
        out.remove(null);
        return Set.copyOf(out);
    }

    /** Whether the file has a view: a read naming one reads tables its SQL does not name. */
    static boolean hasViews(Store store) {
        return store.queryLong("SELECT count(*) FROM sqlite_master WHERE type = 'view'") > 0;
    }
}
