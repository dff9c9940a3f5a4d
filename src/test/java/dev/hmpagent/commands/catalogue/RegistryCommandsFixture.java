package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandBlockParser;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.commands.CommandRun;
import dev.hmpagent.commands.CommandRunner;
import dev.hmpagent.commands.ParsedReply;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.safety.FailureFact;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real SQLite file in a temp dir and the real built-in registry, for the registry families' tests: commands run
 * as the LLM writes them (a {@code # Commands:} block through the parser and the runner), and the rows they leave
 * are read back with plain SQL over a second connection.
 */
abstract class RegistryCommandsFixture {
    @TempDir Path dir;
    final ObjectMapper mapper = new ObjectMapper();
    final CommandRegistry registry = Catalogue.builtIn();
    final List<FailureFact> failures = new ArrayList<>();
    Store store;
    CommandRunner runner;

    @BeforeEach
    void openStore() {
        store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"));
        runner = new CommandRunner(registry, mapper, (tick, fact) -> failures.add(fact));
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    /** Runs a command block (one object or an array) as tick {@code tick}. */
    List<CommandRun> run(long tick, String block) {
        ParsedReply reply = new CommandBlockParser(mapper).parse("thought\n# Commands:\n" + block);
        return store.inTransaction(() -> runner.runAll(reply, new CommandContext(tick, "m", registry, store)));
    }

    /** Runs one command given as {@code type} and its args JSON. */
    CommandRun run(String type, String argsJson) {
        List<CommandRun> runs = run(1, "{\"type\": \"" + type + "\", \"args\": " + argsJson + "}");
        return runs.get(runs.size() - 1);
    }

    /** The rows of a query, each as a list of its column values. */
    List<List<Object>> rows(String sql, Object... params) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("agent.db"));
             PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) ps.setObject(i + 1, params[i]);
            try (ResultSet rs = ps.executeQuery()) {
                List<List<Object>> out = new ArrayList<>();
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int i = 1; i <= n; i++) row.add(rs.getObject(i));
                    out.add(row);
                }
                return out;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** The single value of a query. */
    Object value(String sql, Object... params) {
        return rows(sql, params).get(0).get(0);
    }

    long count(String sql, Object... params) {
        return ((Number) value(sql, params)).longValue();
    }

    /** Every table name in the file, for "nothing else was touched" checks. */
    List<Object> tableNames() {
        return rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").stream().map(r -> r.get(0)).toList();
    }
}
