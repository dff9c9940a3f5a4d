package dev.hmpagent.store;

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

    void migrate() {
        List<Migration> known = known();
        int latest = known.isEmpty() ? 0 : known.get(known.size() - 1).version();
        // one write transaction: a second process opening a new file at the same moment waits, then sees it done
        store.inTransaction(() -> {
            if (!store.tableExists("schema_version") && store.queryLong(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") > 0) {
                throw new StoreException(StoreException.Kind.SCHEMA, store.path() + " is an SQLite file that hmp-agent did not create (it has tables"
                        + " but no schema_version); choose another file with --db");
            }
            store.executeScript("""
                    CREATE TABLE IF NOT EXISTS schema_version (
                        version     INTEGER PRIMARY KEY,
                        description TEXT NOT NULL,
                        applied_at  TEXT NOT NULL
                    )""");
            int current = (int) store.queryLong("SELECT coalesce(max(version), 0) FROM schema_version");
            if (current > latest) {
                throw new StoreException(StoreException.Kind.SCHEMA, store.path() + " has schema version " + current
                        + " but this hmp-agent knows only up to " + latest
                        + ": upgrade hmp-agent, or use another file with --db");
            }
            for (Migration m : known) {
                if (m.version() <= current) continue;
                store.executeScript(read(m.resource()));
                store.update("INSERT INTO schema_version(version, description, applied_at) VALUES (?, ?, ?)",
                        m.version(), m.description(), store.now());
            }
        });
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
