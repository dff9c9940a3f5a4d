package dev.hmpagent.store;

import dev.hmpagent.store.StoreException.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Applies {@code db/V###__name.sql} resources in order, all in one write transaction, recording
 * them in {@code schema_version}. The list lives in {@code db/index.txt} (a jar cannot be listed);
 * a test keeps it in step with the folder. Never edit an applied file: add the next one.
 */
final class Migrator {
    static final String INDEX = "db/index.txt";
    private static final Pattern NAME = Pattern.compile("V(\\d{3})__([A-Za-z0-9_]+)\\.sql");

    record Migration(int version, String description, String resource) { }

    private final Store store;

    Migrator(Store store) {
        this.store = store;
    }

    /**
     * Brings the file up to the latest version. The version is read first without a write transaction, so
     * opening an up-to-date file never waits for another writer; only when migrations are due is the write
     * transaction taken, and the version read again inside it (another process may have migrated meanwhile).
     */
    void migrate() {
        int latest = latest();
        int current = currentVersion();
        if (current == latest) return;
        refuseNewer(current, latest);
        store.inTransaction(() -> {
            int now = currentVersion();
            refuseNewer(now, latest);
            store.executeScript("""
                    CREATE TABLE IF NOT EXISTS schema_version (
                        version     INTEGER PRIMARY KEY,
                        description TEXT NOT NULL,
                        applied_at  TEXT NOT NULL
                    )""");
            for (Migration m : known()) {
                if (m.version() <= now) continue;
                store.executeScript(read(m.resource()));
                store.update("INSERT INTO schema_version(version, description, applied_at) VALUES (?, ?, ?)",
                        m.version(), m.description(), store.now());
            }
        });
    }

    /** For a read-only open: the file must be exactly at the latest version, since nothing may be migrated. */
    void requireCurrent() {
        int latest = latest();
        int current = currentVersion();
        refuseNewer(current, latest);
        if (current == 0) {
            throw new StoreException(Kind.SCHEMA, store.path() + " has no hmp-agent tables yet: start the agent once"
                    + " with --db " + store.path() + " to create them");
        }
        if (current < latest) {
            throw new StoreException(Kind.SCHEMA, store.path() + " has schema version " + current
                    + " but this hmp-agent expects " + latest + ": start the agent once with --db " + store.path()
                    + " to upgrade the file, then try again");
        }
    }

    /** The file's version, read without a write transaction; 0 for a file without tables. */
    private int currentVersion() {
        // one statement, so one snapshot: another process may commit the whole schema between two reads
        boolean[] seen = store.queryOne("SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = "
                + "'schema_version'), (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%')",
                rs -> new boolean[] {rs.getLong(1) > 0, rs.getLong(2) > 0}).orElseThrow();
        if (!seen[0]) {
            if (seen[1]) {
                throw new StoreException(Kind.SCHEMA, store.path() + " is an SQLite file that hmp-agent did not create"
                        + " (it has tables but no schema_version); choose another file with --db");
            }
            return 0;
        }
        return (int) store.queryLong("SELECT coalesce(max(version), 0) FROM schema_version");
    }

    private void refuseNewer(int current, int latest) {
        if (current > latest) {
            throw new StoreException(Kind.SCHEMA, store.path() + " has schema version " + current
                    + " but this hmp-agent knows only up to " + latest
                    + ": upgrade hmp-agent, or use another file with --db");
        }
    }

    private static int latest() {
        List<Migration> known = known();
        return known.isEmpty() ? 0 : known.get(known.size() - 1).version();
    }

    static List<Migration> known() {
        List<Migration> list = new ArrayList<>();
        int previous = 0;
        for (String line : read(INDEX).split("\\R")) {
            String name = line.strip();
            if (name.isEmpty() || name.startsWith("#")) continue;
            Matcher m = NAME.matcher(name);
            if (!m.matches()) throw new IllegalStateException("bad migration name in " + INDEX + ": " + name);
            int version = Integer.parseInt(m.group(1));
            if (version != previous + 1) throw new IllegalStateException("migration " + name + " is out of sequence");
            previous = version;
            list.add(new Migration(version, m.group(2).replace('_', ' '), "db/" + name));
        }
        return List.copyOf(list);
    }

    private static String read(String resource) {
        try (InputStream in = Migrator.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("missing resource " + resource);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
    }
}
