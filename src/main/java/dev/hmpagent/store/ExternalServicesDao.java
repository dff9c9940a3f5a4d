package dev.hmpagent.store;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * {@code external_services} and the agent's {@code external_accounts} on them. An account names where its secret
 * lives ({@link SecretRef}); HMP's {@code password} column stays empty (its CHECK refuses anything else) and no method
 * here reads or writes it. A base URL carries no credentials: user info and query strings are refused.
 */
public final class ExternalServicesDao {
    /** Service columns a command may set: column name by argument name (the same). */
    public static final Set<String> SERVICE_FIELDS = Set.of("name", "type", "base_url", "description", "active",
            "inactive_reason");
    /** Account columns a command may set (never {@code password}). */
    public static final Set<String> ACCOUNT_FIELDS = Set.of("login", "purpose", "active", "inactive_reason",
            "secret_ref");

    public record Service(long id, String name, String type, String baseUrl, String description, boolean active,
                          String inactiveReason, long accounts) { }

    public record Account(long id, long serviceId, String serviceName, String login, String purpose, boolean active,
                          String inactiveReason, String secretRef) { }

    private final Store store;

    public ExternalServicesDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * Checks a base URL: http or https, a host, no {@code user:password@}, no query string.
     *
     * @throws IllegalArgumentException with a one-line reason that does not repeat the URL (it may hold a secret)
     */
    public static void checkBaseUrl(String url) {
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("base_url is not a URL");
        }
        if (uri.getScheme() == null || !Set.of("http", "https").contains(uri.getScheme().toLowerCase(java.util.Locale.ROOT))
                || uri.getHost() == null) {
            throw new IllegalArgumentException("base_url must be an http(s) URL with a host, e.g. https://example.org");
        }
        if (uri.getRawUserInfo() != null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("base_url must not carry credentials, a query or a fragment: a secret "
                    + "belongs in an account's secret_ref (env:NAME or keyring:entry)");
        }
    }

    public long addService(Map<String, Object> fields) {
        return store.insert(insert("external_services", checked(fields, SERVICE_FIELDS)), fields.values().toArray());
    }

    public boolean updateService(long id, Map<String, Object> fields) {
        return update("external_services", id, checked(fields, SERVICE_FIELDS));
    }

    /** Deletes a service and (ON DELETE CASCADE) its accounts. */
    public boolean deleteService(long id) {
        return store.update("DELETE FROM external_services WHERE id = ?", id) > 0;
    }

    public List<Service> services() {
        return store.query("SELECT s.id, s.name, s.type, s.base_url, coalesce(s.description, ''), coalesce(s.active, 1), "
                + "coalesce(s.inactive_reason, ''), (SELECT count(*) FROM external_accounts a WHERE a.service_id = s.id) "
                + "FROM external_services s ORDER BY s.id", rs -> new Service(rs.getLong(1), rs.getString(2),
                rs.getString(3), rs.getString(4), rs.getString(5), rs.getInt(6) != 0, rs.getString(7), rs.getLong(8)));
    }

    /** The service with that id (given as digits), or else the first with that name. */
    public Optional<Service> findService(String idOrName) {
        return services().stream().filter(s -> Long.toString(s.id()).equals(idOrName)).findFirst()
                .or(() -> services().stream().filter(s -> s.name().equals(idOrName)).findFirst());
    }

    public long addAccount(long serviceId, Map<String, Object> fields) {
        Map<String, Object> all = new java.util.LinkedHashMap<>(checked(fields, ACCOUNT_FIELDS));
        all.put("service_id", serviceId);
        return store.insert(insert("external_accounts", all), all.values().toArray());
    }

    public boolean updateAccount(long id, Map<String, Object> fields) {
        return update("external_accounts", id, checked(fields, ACCOUNT_FIELDS));
    }

    public boolean deleteAccount(long id) {
        return store.update("DELETE FROM external_accounts WHERE id = ?", id) > 0;
    }

    /** Accounts, of one service when {@code serviceId} is not null. */
    public List<Account> accounts(Long serviceId) {
        return store.query("SELECT a.id, a.service_id, s.name, a.login, coalesce(a.purpose, ''), coalesce(a.active, 1), "
                + "coalesce(a.inactive_reason, ''), a.secret_ref FROM external_accounts a "
                + "JOIN external_services s ON s.id = a.service_id WHERE ? IS NULL OR a.service_id = ? ORDER BY a.id",
                rs -> new Account(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5),
                        rs.getInt(6) != 0, rs.getString(7), rs.getString(8)), serviceId, serviceId);
    }

    public Optional<Account> account(long id) {
        return accounts(null).stream().filter(a -> a.id() == id).findFirst();
    }

    private static Map<String, Object> checked(Map<String, Object> fields, Set<String> allowed) {
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            if (!allowed.contains(e.getKey())) throw new IllegalArgumentException("column not writable: " + e.getKey());
        }
        Object url = fields.get("base_url");
        if (url != null) checkBaseUrl(url.toString());
        Object ref = fields.get("secret_ref");
        if (ref != null) SecretRef.parse(ref.toString());
        return fields;
    }

    private static String insert(String table, Map<String, Object> fields) {
        return "INSERT INTO " + table + "(" + String.join(", ", fields.keySet()) + ") VALUES ("
                + "?, ".repeat(fields.size() - 1) + "?)";
    }

    private boolean update(String table, long id, Map<String, Object> fields) {
        if (fields.isEmpty()) return store.queryLong("SELECT count(*) FROM " + table + " WHERE id = ?", id) > 0;
        List<String> sets = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            sets.add(e.getKey() + " = ?");
            values.add(e.getValue());
        }
        values.add(id);
        return store.update("UPDATE " + table + " SET " + String.join(", ", sets) + " WHERE id = ?", values.toArray()) > 0;
    }
}
