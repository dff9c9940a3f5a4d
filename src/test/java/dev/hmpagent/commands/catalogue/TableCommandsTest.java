package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandRun;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.AgentTablesDao;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TableCommandsTest extends RegistryCommandsFixture {

    @Test
    void a_table_is_created_in_the_reserved_namespace_recorded_filled_and_queried() {
        List<CommandRun> runs = run(1, """
                [{"type": "table_create", "args": {"name": "contacts", "description": "people I met",
                   "columns": [{"name": "who", "type": "text"}, {"name": "met", "type": "INTEGER"},
                               {"name": "score", "type": "real"}]}},
                 {"type": "table_insert", "args": {"name": "contacts", "row": {"who": "Ann", "met": 3, "score": 0.5}}},
                 {"type": "table_insert", "args": {"name": "contacts", "row": {"who": "Bob", "met": "4"}}},
                 {"type": "table_query", "args": {"name": "contacts", "where": {"who": "Ann"}}},
                 {"type": "table_query", "args": {"name": "contacts", "where": {"score": null}}},
                 {"type": "tables_list"}]""");

        assertThat(runs).extracting(CommandRun::status).containsOnly("ok");
        assertThat(runs.get(0).result()).isEqualTo("table contacts created: who text, met integer, score real");
        assertThat(runs.get(1).result()).isEqualTo("row 1 added to contacts");
        assertThat(runs.get(3).result()).isEqualTo("1 row from contacts:\n{\"id\":1,\"who\":\"Ann\",\"met\":3,\"score\":0.5}");
        assertThat(runs.get(4).result()).isEqualTo("1 row from contacts:\n{\"id\":2,\"who\":\"Bob\",\"met\":4,\"score\":null}");
        assertThat(runs.get(5).result()).isEqualTo("your tables (name (columns): description):\n"
                + "- contacts (id integer, who text, met integer, score real): people I met");
        assertThat(rows("SELECT table_name, description, schema, llm_id FROM agent_tables")).containsExactly(List.of(
                "agent_t_contacts", "people I met",
                "CREATE TABLE \"agent_t_contacts\" (\"id\" INTEGER PRIMARY KEY, \"who\" TEXT, \"met\" INTEGER, \"score\" REAL)",
                "m"));
        assertThat(rows("SELECT id, who, met FROM agent_t_contacts ORDER BY id"))
                .containsExactly(List.of(1, "Ann", 3), List.of(2, "Bob", 4));
        assertThat(new dev.hmpagent.store.AgentCatalogue(store).catalogueLines())
                .contains("- contacts (who, met, score): people I met");
    }

    @Test
    void informing_results_are_the_reads_only() {
        for (String type : List.of("table_query", "tables_list")) assertThat(registry.find(type).orElseThrow().informs()).isTrue();
        for (String type : List.of("table_create", "table_insert", "table_drop")) {
            assertThat(registry.find(type).orElseThrow().informs()).as(type).isFalse();
        }
    }

    @Test
    void a_name_like_an_agent_table_makes_a_table_of_its_own_and_leaves_the_agents_alone() {
        run(1, "{\"type\": \"send_message\", \"args\": {\"text\": \"hello\"}}");
        List<Object> before = tableNames();

        List<CommandRun> runs = run(2, """
                [{"type": "table_create", "args": {"name": "notes", "columns": [{"name": "text", "type": "text"}]}},
                 {"type": "table_insert", "args": {"name": "notes", "row": {"text": "mine"}}},
                 {"type": "table_drop", "args": {"name": "notes"}}]""");

        assertThat(runs).extracting(CommandRun::status).containsExactly("ok", "ok", "ok");
        assertThat(tableNames()).isEqualTo(before);
        assertThat(rows("SELECT text, source FROM notes")).containsExactly(List.of("hello", "llm"));
        assertThat(count("SELECT count(*) FROM agent_tables")).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"x; drop table notes", "agent_t_x\\\"--", "notes\\\" (a); DROP TABLE notes; --", "Notes",
            "1x", "", "a b", "x.y", "_x", "aaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeee"})
    void a_table_name_that_is_not_a_plain_word_is_refused_and_nothing_changes(String name) {
        List<Object> before = tableNames();
        CommandRun create = run("table_create", "{\"name\": \"" + name + "\", \"columns\": {\"a\": \"text\"}}");
        CommandRun insert = run("table_insert", "{\"name\": \"" + name + "\", \"row\": {\"a\": \"x\"}}");
        CommandRun query = run("table_query", "{\"name\": \"" + name + "\"}");
        CommandRun drop = run("table_drop", "{\"name\": \"" + name + "\"}");

        for (CommandRun r : List.of(create, insert, query, drop)) {
            assertThat(r.status()).as(r.type()).isEqualTo("error");
            assertThat(r.result()).as(r.type()).containsAnyOf("args.name must be", "args.name is required");
        }
        assertThat(tableNames()).isEqualTo(before);
        assertThat(count("SELECT count(*) FROM agent_tables")).isZero();
    }

    @Test
    void column_names_and_types_cannot_carry_sql() {
        List<Object> before = tableNames();
        List<CommandRun> runs = run(1, """
                [{"type": "table_create", "args": {"name": "t", "columns": [{"name": "a\\" TEXT); DROP TABLE notes; --", "type": "text"}]}},
                 {"type": "table_create", "args": {"name": "t", "columns": [{"name": "a", "type": "TEXT); DROP TABLE notes; --"}]}},
                 {"type": "table_create", "args": {"name": "t", "columns": [{"name": "id", "type": "text"}]}},
                 {"type": "table_create", "args": {"name": "t", "columns": [{"name": "a", "type": "text"}, {"name": "a", "type": "real"}]}},
                 {"type": "table_create", "args": {"name": "t", "columns": []}}]""");
        assertThat(runs).extracting(CommandRun::status).containsOnly("error");
        assertThat(runs.get(0).result()).contains("a column name must be");
        assertThat(runs.get(1).result()).contains("a column type must be one of text, integer, real");
        assertThat(runs.get(2).result()).contains("not id");
        assertThat(runs.get(3).result()).contains("used twice");
        assertThat(runs.get(4).result()).contains("1 to 32 columns");
        assertThat(tableNames()).isEqualTo(before);
    }

    @Test
    void values_and_filters_are_bound_never_spliced_and_unknown_columns_are_refused() {
        run("table_create", "{\"name\": \"t\", \"columns\": {\"a\": \"text\", \"n\": \"integer\"}}");
        String evil = "x'); DROP TABLE notes; --";
        List<CommandRun> runs = run(1, "["
                + "{\"type\": \"table_insert\", \"args\": {\"name\": \"t\", \"row\": {\"a\": \"" + evil.replace("\"", "\\\"") + "\"}}},"
                + "{\"type\": \"table_query\", \"args\": {\"name\": \"t\", \"where\": {\"a\": \"" + evil + "\"}}},"
                + "{\"type\": \"table_query\", \"args\": {\"name\": \"t\", \"where\": {\"a = a OR 1\": 1}}},"
                + "{\"type\": \"table_insert\", \"args\": {\"name\": \"t\", \"row\": {\"zzz\": 1}}},"
                + "{\"type\": \"table_insert\", \"args\": {\"name\": \"t\", \"row\": {\"n\": \"many\"}}}]");

        assertThat(runs).extracting(CommandRun::status).containsExactly("ok", "ok", "error", "error", "error");
        assertThat(runs.get(1).result()).contains("1 row from t").contains("DROP TABLE notes");
        assertThat(runs.get(2).result()).contains("names no column of t").contains("its columns: id, a, n");
        assertThat(runs.get(3).result()).contains("its columns: a, n");
        assertThat(runs.get(4).result()).contains("column n holds whole numbers");
        assertThat(tableNames()).contains("notes");
        assertThat(count("SELECT count(*) FROM agent_t_t")).isEqualTo(1);
    }

    @Test
    void unknown_tables_are_named_with_the_known_ones_and_an_existing_table_is_not_made_twice() {
        run("table_create", "{\"name\": \"a\", \"columns\": {\"x\": \"text\"}}");
        List<CommandRun> runs = run(1, """
                [{"type": "table_insert", "args": {"name": "b", "row": {"x": 1}}},
                 {"type": "table_query", "args": {"name": "b"}},
                 {"type": "table_drop", "args": {"name": "b"}},
                 {"type": "table_create", "args": {"name": "a", "columns": {"y": "text"}}}]""");
        assertThat(runs).extracting(CommandRun::status).containsOnly("error");
        assertThat(runs.get(0).result()).isEqualTo("table_insert: you have no table b; yours: a");
        assertThat(runs.get(3).result()).contains("you already have a table a");
    }

    @Test
    void a_table_the_agent_did_not_record_is_out_of_reach_even_in_the_namespace() {
        // a leftover agent_t_ table with no agent_tables row (made by hand): no command reaches it
        store.inTransaction(() -> new AgentTablesDao(store).create("kept", null, List.of(
                new AgentTablesDao.Column("a", AgentTablesDao.ColumnType.TEXT)), "m"));
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("agent.db"));
             java.sql.Statement st = c.createStatement()) {
            st.execute("DELETE FROM agent_tables");
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        List<CommandRun> runs = run(1, """
                [{"type": "table_query", "args": {"name": "kept"}},
                 {"type": "table_drop", "args": {"name": "kept"}},
                 {"type": "table_create", "args": {"name": "kept", "columns": {"b": "text"}}}]""");
        assertThat(runs).extracting(CommandRun::status).containsOnly("error");
        assertThat(runs.get(2).result()).contains("table exists: agent_t_kept");
        assertThat(tableNames()).contains("agent_t_kept");
    }

    @Test
    void no_table_of_the_agent_itself_lives_in_the_reserved_namespace() {
        assertThat(tableNames()).noneMatch(n -> n.toString().startsWith(AgentTablesDao.PREFIX));
    }

    @Test
    void query_limits_are_bounded_and_a_big_result_is_cut_with_a_note() {
        run("table_create", "{\"name\": \"t\", \"columns\": {\"a\": \"text\"}}");
        String big = "y".repeat(900);
        for (int i = 0; i < 6; i++) run("table_insert", "{\"name\": \"t\", \"row\": {\"a\": \"" + big + "\"}}");
        CommandRun all = run("table_query", "{\"name\": \"t\"}");
        assertThat(all.result()).startsWith("6 rows from t:").contains("more rows not shown");
        assertThat(all.result().length()).isLessThanOrEqualTo(TableCommands.MAX_RESULT + 100);
        assertThat(run("table_query", "{\"name\": \"t\", \"limit\": 1000}").result()).contains("args.limit must be from 1 to 100");
        assertThat(run("table_query", "{\"name\": \"t\", \"limit\": 2}").result()).startsWith("2 rows from t (the limit");
    }
}
