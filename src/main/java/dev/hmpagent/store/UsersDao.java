package dev.hmpagent.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code users} and {@code users_group}: the people who may write to the agent, known by their DID (as in
 * {@code notes.user_did}), and the groups they belong to ({@code users.groups}, a JSON array of group names).
 * {@code operator}, {@code ban} and {@code password_hash} are a person's to set: no method here writes them and
 * {@link User} does not carry the hash.
 */
public final class UsersDao {
    /** A DID: {@code did:<method>:<id>}. */
    public static final Pattern DID = Pattern.compile("did:[a-z0-9]+:[A-Za-z0-9._:%-]{1,200}");
    /** The columns a command may set: {@code username}, ... (not did, operator, ban, password_hash). */
    public static final Set<String> FIELDS = Set.of("username", "badges", "mail", "info", "profile", "contacts",
            "language", "groups");

    public record User(long userId, String username, String did, String mail, String language, String groups,
                       String badges, boolean operator, String ban) { }

    public record Group(long id, String name, String description, long members) { }

    private static final String COLUMNS = "user_id, coalesce(username, ''), did, coalesce(mail, ''), "
            + "coalesce(language, ''), coalesce(groups, '[]'), coalesce(badges, ''), coalesce(operator, 0), ban";

    private final Store store;

    public UsersDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public List<User> all(int limit) {
        return store.query("SELECT " + COLUMNS + " FROM users ORDER BY user_id LIMIT ?", UsersDao::map, limit);
    }

    public long count() {
        return store.queryLong("SELECT count(*) FROM users");
    }

    public Optional<User> byDid(String did) {
        return store.queryOne("SELECT " + COLUMNS + " FROM users WHERE did = ?", UsersDao::map, did);
    }

    public Optional<User> byId(long userId) {
        return store.queryOne("SELECT " + COLUMNS + " FROM users WHERE user_id = ?", UsersDao::map, userId);
    }

    /** Adds a user with a DID and the given {@link #FIELDS}; returns the user_id. */
    public long add(String did, Map<String, String> fields) {
        if (!DID.matcher(did).matches()) throw new IllegalArgumentException("not a DID: " + did);
        List<String> cols = new ArrayList<>(List.of("did"));
        List<Object> values = new ArrayList<>(List.of(did));
        for (Map.Entry<String, String> e : checked(fields).entrySet()) {
            cols.add(e.getKey());
            values.add(e.getValue());
        }
        return store.insert("INSERT INTO users(" + String.join(", ", cols) + ") VALUES ("
                + "?, ".repeat(cols.size() - 1) + "?)", values.toArray());
    }

    /** Sets the given {@link #FIELDS}; false when there is no such user. */
    public boolean update(long userId, Map<String, String> fields) {
        if (fields.isEmpty()) return byId(userId).isPresent();
        List<String> sets = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        for (Map.Entry<String, String> e : checked(fields).entrySet()) {
            sets.add(e.getKey() + " = ?");
            values.add(e.getValue());
        }
        values.add(userId);
        return store.update("UPDATE users SET " + String.join(", ", sets) + " WHERE user_id = ?", values.toArray()) > 0;
    }

    /** Whether another user than {@code userId} has that mail (mail is UNIQUE). */
    public boolean mailTaken(String mail, long userId) {
        return store.queryLong("SELECT count(*) FROM users WHERE mail = ? AND user_id <> ?", mail, userId) > 0;
    }

    public long addGroup(String name, String description) {
        return store.insert("INSERT INTO users_group(group_name, description) VALUES (?, ?)", name, description);
    }

    /** The groups with how many users name each. */
    public List<Group> groups() {
        return store.query("SELECT g.id, g.group_name, coalesce(g.description, ''), (SELECT count(*) FROM users u, "
                + "json_each(CASE WHEN json_valid(u.groups) THEN u.groups ELSE '[]' END) j WHERE j.value = g.group_name) "
                + "FROM users_group g ORDER BY g.group_name", rs -> new Group(rs.getLong(1), rs.getString(2),
                rs.getString(3), rs.getLong(4)));
    }

    public Optional<Group> group(String name) {
        return groups().stream().filter(g -> g.name().equals(name)).findFirst();
    }

    private static Map<String, String> checked(Map<String, String> fields) {
        for (String k : fields.keySet()) {
            if (!FIELDS.contains(k)) throw new IllegalArgumentException("users column not writable: " + k);
        }
        return fields;
    }

    private static User map(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new User(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getString(7), rs.getInt(8) != 0, rs.getString(9));
    }
}
