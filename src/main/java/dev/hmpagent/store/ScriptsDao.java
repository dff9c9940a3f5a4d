package dev.hmpagent.store;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code agent_scripts}: code the agent wrote for itself. Each change is a new row (a new version, as HMP's
 * {@code UNIQUE(name, version)} has it); the newest row of a name is the one that runs. Names, versions and languages
 * are checked here as well as by the commands, since they end up in file names and command lines.
 */
public final class ScriptsDao {
    /** The languages hmp-agent knows an interpreter for. */
    public static final Set<String> LANGUAGES = Set.of("python", "sh", "bash");
    public static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,40}");
    public static final Pattern VERSION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,19}");
    /** The most code one script may hold, in characters. */
    public static final int MAX_CODE = 64 * 1024;
    private static final String COLUMNS = "id, name, version, coalesce(language, 'python'), coalesce(description, ''), "
            + "coalesce(tags, ''), code, updated_at";

    private final Store store;

    public ScriptsDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** Adds a version; the caller has checked that (name, version) is new. */
    public long add(String name, String version, String language, String description, String tags, String code,
                    String llmId) {
        check(name, version, language, code);
        String now = store.now();
        return store.insert("INSERT INTO agent_scripts(name, version, code, language, description, tags, created_at, "
                + "updated_at, llm_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", name, version, code, language, description,
                tags, now, now, llmId);
    }

    /** The newest version of each script, by name. */
    public List<ScriptRow> latestAll() {
        return store.queryKept("SELECT " + COLUMNS + " FROM agent_scripts WHERE id IN "
                + "(SELECT max(id) FROM agent_scripts GROUP BY name) ORDER BY name", ScriptsDao::map);
    }

    public Optional<ScriptRow> latest(String name) {
        return store.queryOne("SELECT " + COLUMNS + " FROM agent_scripts WHERE name = ? ORDER BY id DESC LIMIT 1",
                ScriptsDao::map, name);
    }

    public Optional<ScriptRow> version(String name, String version) {
        return store.queryOne("SELECT " + COLUMNS + " FROM agent_scripts WHERE name = ? AND version = ?",
                ScriptsDao::map, name, version);
    }

    public long versionCount(String name) {
        return store.queryLong("SELECT count(*) FROM agent_scripts WHERE name = ?", name);
    }

    /** One more than the highest whole-number version of the name ("1" for a new name). */
    public String nextVersion(String name) {
        return Long.toString(1 + store.queryLong("SELECT coalesce(max(CAST(version AS INTEGER)), 0) FROM agent_scripts "
                + "WHERE name = ?", name));
    }

    /** Deletes one version, or every version when {@code version} is null; returns how many rows went. */
    public int delete(String name, String version) {
        return version == null ? store.update("DELETE FROM agent_scripts WHERE name = ?", name)
                : store.update("DELETE FROM agent_scripts WHERE name = ? AND version = ?", name, version);
    }

    static void check(String name, String version, String language, String code) {
        if (!NAME.matcher(name).matches()) throw new IllegalArgumentException("bad script name: " + name);
        if (!VERSION.matcher(version).matches()) throw new IllegalArgumentException("bad script version: " + version);
        if (!LANGUAGES.contains(language)) throw new IllegalArgumentException("unknown script language: " + language);
        if (code.length() > MAX_CODE) throw new IllegalArgumentException("script code over " + MAX_CODE + " characters");
    }

    private static ScriptRow map(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new ScriptRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getString(7), rs.getString(8));
    }
}
