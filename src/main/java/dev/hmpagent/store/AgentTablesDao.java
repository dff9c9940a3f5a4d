package dev.hmpagent.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Tables the agent makes for itself ({@code agent_tables} plus the tables it records). Every such table is named
 * {@code agent_t_<name>}, a namespace no hmp-agent table uses, and is reached only through the name recorded in
 * {@code agent_tables}: a name is checked against {@link #NAME} before it is ever put into SQL, types come from
 * {@link ColumnType}, and values are always bound parameters. So no argument can reach another table or carry SQL.
 */
public final class AgentTablesDao {
    /** The reserved namespace: the physical name of table {@code x} is {@code agent_t_x}. */
    public static final String PREFIX = "agent_t_";
    /** A table or column name as the LLM gives it. */
    public static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,40}");
    public static final int MAX_TABLES = 64;
    public static final int MAX_COLUMNS = 32;
    public static final int MAX_ROWS = 10_000;
    /** Every table gets this primary key; a column of the LLM's may not take the name. */
    public static final String ID = "id";

    /** The column types the LLM may choose. */
    public enum ColumnType {
        TEXT, INTEGER, REAL;

        /** The type named {@code text} in any case, or empty. */
        public static Optional<ColumnType> of(String text) {
            for (ColumnType t : values()) {
                if (t.name().equalsIgnoreCase(text.strip())) return Optional.of(t);
            }
            return Optional.empty();
        }
    }

    public record Column(String name, ColumnType type) {
        public Column {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
        }
    }

    /** A recorded table, by its short name, with its columns (without the id). */
    public record AgentTable(long id, String name, String description, List<Column> columns, String createdAt) {
        public AgentTable {
            columns = List.copyOf(columns);
        }
    }

    private final Store store;

    public AgentTablesDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public static boolean validName(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    /** The table's name in the file, quoted for SQL; only for a name that passed {@link #validName}. */
    static String physical(String name) {
        if (!validName(name)) throw new IllegalArgumentException("bad agent table name: " + name);
        return "\"" + PREFIX + name + "\"";
    }

    private static String column(String name) {
        if (!validName(name)) throw new IllegalArgumentException("bad agent table column: " + name);
        return "\"" + name + "\"";
    }

    /**
     * Creates {@code agent_t_<name>} with an integer {@code id} primary key and the given columns, and records it.
     * The caller has checked that no table of that name is recorded and that fewer than {@link #MAX_TABLES} exist.
     *
     * @throws IllegalArgumentException for a bad name, column or column list, or when a table of that name exists
     */
    public long create(String name, String description, List<Column> columns, String llmId) {
        if (columns.isEmpty() || columns.size() > MAX_COLUMNS) {
            throw new IllegalArgumentException("an agent table has 1 to " + MAX_COLUMNS + " columns");
        }
        StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(physical(name)).append(" (\"id\" INTEGER PRIMARY KEY");
        List<String> seen = new ArrayList<>();
        for (Column c : columns) {
            if (c.name().equals(ID) || seen.contains(c.name())) {
                throw new IllegalArgumentException("column name used twice or reserved: " + c.name());
            }
            seen.add(c.name());
            ddl.append(", ").append(column(c.name())).append(' ').append(c.type().name());
        }
        ddl.append(')');
        if (store.tableExists(PREFIX + name)) throw new IllegalArgumentException("table exists: " + PREFIX + name);
        store.update(ddl.toString());
        return store.insert("INSERT INTO agent_tables(table_name, description, schema, created_at, llm_id) "
                + "VALUES (?, ?, ?, ?, ?)", PREFIX + name, description, ddl.toString(), store.now(), llmId);
    }

    public long count() {
        return store.queryLong("SELECT count(*) FROM agent_tables");
    }

    public List<AgentTable> all() {
        List<String[]> rows = store.queryKept("SELECT id, table_name, coalesce(description, ''), created_at "
                + "FROM agent_tables ORDER BY table_name", rs -> new String[] {rs.getString(1), rs.getString(2),
                rs.getString(3), rs.getString(4)});
        List<AgentTable> out = new ArrayList<>();
        for (String[] r : rows) {
            String name = r[1].substring(PREFIX.length());
            if (validName(name)) out.add(new AgentTable(Long.parseLong(r[0]), name, r[2], columns(name), r[3]));
        }
        return out;
    }

    /** The recorded table of that short name. */
    public Optional<AgentTable> find(String name) {
        if (!validName(name)) return Optional.empty();
        return store.queryOne("SELECT id, coalesce(description, ''), created_at FROM agent_tables WHERE table_name = ?",
                rs -> new AgentTable(rs.getLong(1), name, rs.getString(2), List.of(), rs.getString(3)), PREFIX + name)
                .map(t -> new AgentTable(t.id(), name, t.description(), columns(name), t.createdAt()));
    }

    /** Inserts one row (column name to a String, Long, Double or null); returns its id. */
    public long insert(String name, Map<String, Object> row) {
        AgentTable table = recorded(name);
        List<String> cols = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        for (Map.Entry<String, Object> e : row.entrySet()) {
            requireColumn(table, e.getKey());
            cols.add(column(e.getKey()));
            values.add(e.getValue());
        }
        if (cols.isEmpty()) return store.insertNamedByAgent("INSERT INTO " + physical(name) + " DEFAULT VALUES");
        return store.insertNamedByAgent("INSERT INTO " + physical(name) + " (" + String.join(", ", cols) + ") VALUES ("
                + "?, ".repeat(cols.size() - 1) + "?)", values.toArray());
    }

    public long rowCount(String name) {
        recorded(name);
        return store.queryLong("SELECT count(*) FROM " + physical(name));
    }

    /**
     * Rows whose columns equal the given values (a null value matches NULL), in id order, at most {@code limit};
     * each row maps column name to value, {@code id} first.
     */
    public List<Map<String, Object>> query(String name, Map<String, Object> where, int limit) {
        AgentTable table = recorded(name);
        List<String> names = new ArrayList<>(List.of(ID));
        table.columns().forEach(c -> names.add(c.name()));
        StringBuilder sql = new StringBuilder("SELECT ");
        sql.append(String.join(", ", names.stream().map(AgentTablesDao::column).toList()));
        sql.append(" FROM ").append(physical(name));
        List<Object> params = new ArrayList<>();
        String glue = " WHERE ";
        for (Map.Entry<String, Object> e : where.entrySet()) {
            if (!e.getKey().equals(ID)) requireColumn(table, e.getKey());
            sql.append(glue).append(column(e.getKey())).append(e.getValue() == null ? " IS NULL" : " = ?");
            if (e.getValue() != null) params.add(e.getValue());
            glue = " AND ";
        }
        sql.append(" ORDER BY \"id\" LIMIT ?");
        params.add(limit);
        return store.query(sql.toString(), rs -> {
            Map<String, Object> r = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) r.put(names.get(i), rs.getObject(i + 1));
            return r;
        }, params.toArray());
    }

    /** Drops a recorded table and its record; false when no such table is recorded. */
    public boolean drop(String name) {
        if (find(name).isEmpty()) return false;
        store.update("DROP TABLE IF EXISTS " + physical(name));
        store.update("DELETE FROM agent_tables WHERE table_name = ?", PREFIX + name);
        return true;
    }

    private AgentTable recorded(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("no agent table " + name));
    }

    private static void requireColumn(AgentTable table, String col) {
        if (table.columns().stream().noneMatch(c -> c.name().equals(col))) {
            throw new IllegalArgumentException("table " + table.name() + " has no column " + col);
        }
    }

    private List<Column> columns(String name) {
        return store.query("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", rs -> {
            String col = rs.getString(1);
            Optional<ColumnType> type = ColumnType.of(rs.getString(2) == null ? "" : rs.getString(2));
            return col.equals(ID) || type.isEmpty() ? null : new Column(col, type.get());
        }, PREFIX + name).stream().filter(Objects::nonNull).toList();
    }

    /** For messages: the lower-case type names, e.g. "text, integer, real". */
    public static String typeNames() {
        List<String> names = new ArrayList<>();
        for (ColumnType t : ColumnType.values()) names.add(t.name().toLowerCase(Locale.ROOT));
        return String.join(", ", names);
    }
}
