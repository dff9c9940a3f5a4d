package dev.hmpagent.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rows of the small reads a tick repeats, kept with where the tables they read stood (issue 36): context 3's goals,
 * tasks and pins, context 4's notes, context 6's memory and scripts are the same tick after tick while nothing writes
 * their tables, and each read of them met cold caches at 30–200 µs. A read is asked again once any table it may read
 * moved ({@link Freshness}: a write of this connection naming it, a rollback, a script, another connection's commit).
 *
 * <p>The tables a read may read are every table of the file whose name the SQL holds as a word, more than it reads at
 * worst (a column of the same name), never fewer; a table with a trigger or a foreign key action that writes another
 * one moves everything when written ({@link Freshness#fanOut}). Rows are kept as read and handed out unmodifiable;
 * a kept read's mapper must make values nothing changes afterwards. One connection, one thread at a time.
 */
final class KeptReads {
    /** Reads kept at most: a tick repeats a few dozen. */
    static final int MAX_KEPT = 128;
    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private record Key(String sql, List<Object> params) { }

    private record Rows(Freshness.Stamp stamp, List<?> rows) { }

    private final Map<Key, Rows> kept = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Rows> eldest) {
            return size() > MAX_KEPT;
        }
    };
    private final Map<String, List<String>> tablesOf = new HashMap<>();

    /** The tables {@code sql} may read, of {@code known} (the file's tables, lower case). */
    synchronized List<String> tables(String sql, Supplier<Set<String>> known) {
        List<String> tables = tablesOf.get(sql);
        if (tables != null) return tables;
        Set<String> all = known.get();
        List<String> found = new ArrayList<>();
        Matcher m = WORD.matcher(sql);
        while (m.find()) {
            String word = m.group().toLowerCase(Locale.ROOT);
            if (all.contains(word) && !found.contains(word)) found.add(word);
        }
        tables = List.copyOf(found);
        tablesOf.put(sql, tables);
        return tables;
    }

    /** The rows of {@code sql} with {@code params}, read by {@code read} unless kept from a read at {@code stamp}. */
    @SuppressWarnings("unchecked")
    synchronized <T> List<T> get(String sql, Object[] params, Freshness.Stamp stamp, Supplier<List<T>> read) {
        Key key = new Key(sql, Arrays.asList(params.clone()));
        Rows rows = kept.get(key);
        if (rows != null && rows.stamp().equals(stamp)) return (List<T>) rows.rows();
        kept.remove(key);   // a read that throws keeps nothing
        List<T> fresh = Collections.unmodifiableList(new ArrayList<>(read.get()));
        kept.put(key, new Rows(stamp, fresh));
        return fresh;
    }

    /** The schema changed: which words are tables is asked again, and nothing read before is kept. */
    synchronized void schemaChanged() {
        tablesOf.clear();
        kept.clear();
    }
}
