package dev.hmpagent.commands.catalogue;

import dev.hmpagent.text.Json;
import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.SimpleCommand;
import static dev.hmpagent.commands.catalogue.RegistryArgs.MAX_TEXT;
import static dev.hmpagent.commands.catalogue.RegistryArgs.listing;
import static dev.hmpagent.commands.catalogue.RegistryArgs.oneLine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.store.AgentTablesDao;
import dev.hmpagent.store.AgentTablesDao.AgentTable;
import dev.hmpagent.store.AgentTablesDao.Column;
import dev.hmpagent.store.AgentTablesDao.ColumnType;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The agent's own tables ({@code agent_tables}): real SQLite tables named {@code agent_t_<name>}, made and read
 * through names checked against {@link AgentTablesDao#NAME}, types from a fixed set and bound values only; the LLM
 * never writes SQL text.
 */
public final class TableCommands {
    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;
    /** The most characters of rows {@code table_query} returns. */
    static final int MAX_RESULT = 4_000;
    private static final ObjectMapper JSON = Json.mapper();
    private static final String NAME_RULE = "lower-case letters, digits and _, starting with a letter, at most 41 long";

    private TableCommands() { }

    public static List<CommandHandler> all() {
        return List.of(tableCreate(), tableInsert(), tableQuery(), tablesList(), tableDrop());
    }

    static CommandHandler tableCreate() {
        return new SimpleCommand("table_create",
                "create a table of your own (an integer id is added); column types: " + AgentTablesDao.typeNames(),
                "{\"name\": \"contacts\", \"description\": \"...\", \"columns\": [{\"name\": \"who\", \"type\": \"text\"}, "
                        + "{\"name\": \"met\", \"type\": \"integer\"}]}", (args, ctx) -> {
            String name = name(args);
            List<Column> columns = columns(args);
            AgentTablesDao tables = ctx.tables().agentTables();
            if (tables.find(name).isPresent()) {
                return CommandOutcome.error("table_create: you already have a table " + name + "; tables_list shows yours");
            }
            if (tables.count() >= AgentTablesDao.MAX_TABLES) {
                return CommandOutcome.error("table_create: you have " + AgentTablesDao.MAX_TABLES
                        + " tables, the most allowed; table_drop one you no longer need");
            }
            try {
                tables.create(name, args.optionalText("description").orElse(null), columns, ctx.llmId());
            } catch (IllegalArgumentException e) {
                return CommandOutcome.error("table_create: " + e.getMessage());
            }
            return CommandOutcome.ok("table " + name + " created: " + describe(columns));
        }).takes("name: string, columns: array, description?: string");
    }

    static CommandHandler tableInsert() {
        return new SimpleCommand("table_insert", "add a row to a table of yours",
                "{\"name\": \"contacts\", \"row\": {\"who\": \"Ann\", \"met\": 3}}", (args, ctx) -> {
            String name = name(args);
            AgentTablesDao tables = ctx.tables().agentTables();
            Optional<AgentTable> table = tables.find(name);
            if (table.isEmpty()) return unknown("table_insert", name, ctx);
            JsonNode row = args.node().get("row");
            if (row == null || !row.isObject()) throw args.bad("args.row is required (an object of column: value)");
            Map<String, Object> values = values(args, table.get(), row, "row", false);
            if (tables.rowCount(name) >= AgentTablesDao.MAX_ROWS) {
                return CommandOutcome.error("table_insert: " + name + " holds " + AgentTablesDao.MAX_ROWS
                        + " rows, the most allowed; drop it or make another");
            }
            long id = tables.insert(name, values);
            return CommandOutcome.ok("row " + id + " added to " + name);
        }).takes("name: string, row: object");
    }

    static CommandHandler tableQuery() {
        return SimpleCommand.informing("table_query",
                "read rows of a table of yours (where: column values to match; all if none)",
                "{\"name\": \"contacts\", \"where\": {\"who\": \"Ann\"}, \"limit\": 20}", (args, ctx) -> {
            String name = name(args);
            AgentTablesDao tables = ctx.tables().agentTables();
            Optional<AgentTable> table = tables.find(name);
            if (table.isEmpty()) return unknown("table_query", name, ctx);
            JsonNode where = args.node().get("where");
            if (where != null && !where.isNull() && !where.isObject()) {
                throw args.bad("args.where must be an object of column: value");
            }
            Map<String, Object> filter = where == null || where.isNull() ? Map.of()
                    : values(args, table.get(), where, "where", true);
            long limit = args.optionalLong("limit").orElse((long) DEFAULT_LIMIT);
            if (limit < 1 || limit > MAX_LIMIT) throw args.bad("args.limit must be from 1 to " + MAX_LIMIT);
            List<Map<String, Object>> rows = tables.query(name, filter, (int) limit);
            StringBuilder sb = new StringBuilder(rows.size() + " row" + (rows.size() == 1 ? "" : "s") + " from " + name
                    + (rows.size() == limit ? " (the limit; there may be more)" : "") + ":");
            for (int i = 0; i < rows.size(); i++) {
                String json = json(rows.get(i));
                if (sb.length() + json.length() > MAX_RESULT) {
                    sb.append("\n… ").append(rows.size() - i).append(" more rows not shown: narrow where or lower limit");
                    break;
                }
                sb.append('\n').append(json);
            }
            return CommandOutcome.ok(sb.toString());
        }).takes("name: string, where?: object, limit?: integer");
    }

    static CommandHandler tablesList() {
        return SimpleCommand.informing("tables_list", "list your tables with their columns", "{}", (args, ctx) ->
                CommandOutcome.ok(listing("your tables (name (columns): description):",
                        ctx.tables().agentTables().all().stream().map(t -> "- " + t.name() + " (id integer, "
                                + describe(t.columns()) + ")" + (t.description().isEmpty() ? ""
                                : ": " + oneLine(t.description(), MAX_TEXT))).toList(),
                        "you have no tables yet; table_create makes one")));
    }

    static CommandHandler tableDrop() {
        return new SimpleCommand("table_drop", "delete a table of yours and all its rows",
                "{\"name\": \"contacts\"}", (args, ctx) -> {
            String name = name(args);
            return ctx.tables().agentTables().drop(name) ? CommandOutcome.ok("table " + name + " dropped")
                    : unknown("table_drop", name, ctx);
        }).takes("name: string");
    }

    private static String name(Args args) {
        String name = args.requiredText("name").strip();
        if (!AgentTablesDao.validName(name)) throw args.bad("args.name must be " + NAME_RULE);
        return name;
    }

    /** {@code [{"name": "who", "type": "text"}, ...]}, or the shorter {@code {"who": "text", ...}}. */
    private static List<Column> columns(Args args) {
        JsonNode node = args.node().get("columns");
        List<Column> out = new ArrayList<>();
        if (node != null && node.isArray()) {
            for (JsonNode c : node) {
                if (!c.isObject() || !c.path("name").isTextual()) {
                    throw args.bad("each of args.columns is {\"name\": \"...\", \"type\": \"text\"}");
                }
                out.add(column(args, c.get("name").asText(), c.path("type").asText("text")));
            }
        } else if (node != null && node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                out.add(column(args, e.getKey(), e.getValue().asText()));
            }
        }
        if (out.isEmpty() || out.size() > AgentTablesDao.MAX_COLUMNS) {
            throw args.bad("args.columns must list 1 to " + AgentTablesDao.MAX_COLUMNS + " columns");
        }
        if (out.stream().map(Column::name).distinct().count() < out.size()) throw args.bad("a column name is used twice");
        return out;
    }

    private static Column column(Args args, String name, String type) {
        if (!AgentTablesDao.validName(name) || name.equals(AgentTablesDao.ID)) {
            throw args.bad("a column name must be " + NAME_RULE + ", and not id (added for you)");
        }
        return new Column(name, ColumnType.of(type).orElseThrow(
                () -> args.bad("a column type must be one of " + AgentTablesDao.typeNames())));
    }

    /** The JSON object's values converted to what each column holds; unknown columns are refused. */
    private static Map<String, Object> values(Args args, AgentTable table, JsonNode object, String what, boolean idToo) {
        Map<String, ColumnType> types = new LinkedHashMap<>();
        if (idToo) types.put(AgentTablesDao.ID, ColumnType.INTEGER);
        table.columns().forEach(c -> types.put(c.name(), c.type()));
        Map<String, Object> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            ColumnType type = types.get(e.getKey());
            if (type == null) {
                throw args.bad("args." + what + " names no column of " + table.name() + ": \""
                        + oneLine(e.getKey(), 40) + "\"; its columns: " + String.join(", ", types.keySet()));
            }
            out.put(e.getKey(), value(args, e.getKey(), type, e.getValue()));
        }
        return out;
    }

    private static Object value(Args args, String column, ColumnType type, JsonNode v) {
        if (v == null || v.isNull()) return null;
        switch (type) {
            case TEXT:
                return v.isValueNode() ? v.asText() : v.toString();
            case INTEGER:
                if (v.isIntegralNumber() && v.canConvertToLong()) return v.asLong();
                if (v.isBoolean()) return v.asBoolean() ? 1L : 0L;
                if (v.isTextual() && v.asText().strip().matches("-?\\d{1,18}")) return Long.parseLong(v.asText().strip());
                throw args.bad("column " + column + " holds whole numbers, got " + Args.abbreviate(v.toString()));
            default:
                if (v.isNumber()) return v.asDouble();
                if (v.isTextual()) {
                    try {
                        return Double.parseDouble(v.asText().strip());
                    } catch (NumberFormatException e) {
                        // falls through to the refusal
                    }
                }
                throw args.bad("column " + column + " holds numbers, got " + Args.abbreviate(v.toString()));
        }
    }

    private static String describe(List<Column> columns) {
        return columns.stream().map(c -> c.name() + " " + c.type().name().toLowerCase(java.util.Locale.ROOT))
                .collect(Collectors.joining(", "));
    }

    private static CommandOutcome unknown(String type, String name, CommandContext ctx) {
        List<String> names = ctx.tables().agentTables().all().stream().map(AgentTable::name).toList();
        return CommandOutcome.error(type + ": you have no table " + name + "; "
                + (names.isEmpty() ? "table_create makes one" : "yours: " + String.join(", ", names)));
    }

    private static String json(Map<String, Object> row) {
        try {
            return JSON.writeValueAsString(row);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot show a row as JSON", e);
        }
    }
}
