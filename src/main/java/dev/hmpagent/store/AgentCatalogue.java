package dev.hmpagent.store;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What context 0 says about the agent's own scripts and tables: one line each (name and description), at most
 * {@link #MAX_EACH} of each kind, every line clipped, so context 0 stays short however many the agent makes.
 */
public final class AgentCatalogue {
    public static final int MAX_EACH = 15;
    public static final int MAX_LINE = 120;

    private final ScriptsDao scripts;
    private final AgentTablesDao tables;

    public AgentCatalogue(Store store) {
        Objects.requireNonNull(store, "store");
        this.scripts = store.tables().scripts();
        this.tables = store.tables().agentTables();
    }

    /** The lines, each ending in a newline; empty when the agent has neither scripts nor tables. */
    public String catalogueLines() {
        List<ScriptRow> s = scripts.latestAll();
        List<AgentTablesDao.AgentTable> t = tables.all();
        StringBuilder sb = new StringBuilder();
        if (!s.isEmpty()) {
            sb.append("Your scripts (script_read shows one, script_run runs it):\n");
            for (ScriptRow r : s.subList(0, Math.min(s.size(), MAX_EACH))) {
                sb.append(line("- " + r.name() + " (" + r.language() + ", v" + r.version() + ")", r.description()));
            }
            more(sb, s.size(), "scripts_list");
        }
        if (!t.isEmpty()) {
            sb.append("Your tables (table_query reads one, table_insert adds a row):\n");
            for (AgentTablesDao.AgentTable r : t.subList(0, Math.min(t.size(), MAX_EACH))) {
                String cols = r.columns().stream().map(AgentTablesDao.Column::name).collect(Collectors.joining(", "));
                sb.append(line("- " + r.name() + " (" + cols + ")", r.description()));
            }
            more(sb, t.size(), "tables_list");
        }
        return sb.toString();
    }

    private static String line(String head, String description) {
        String text = description == null || description.isBlank() ? head : head + ": " + description;
        String one = text.replaceAll("\\s+", " ").strip();
        return (one.length() > MAX_LINE ? one.substring(0, MAX_LINE - 1) + "…" : one) + "\n";
    }

    private static void more(StringBuilder sb, int total, String command) {
        if (total > MAX_EACH) sb.append("- … and ").append(total - MAX_EACH).append(" more (").append(command).append(")\n");
    }
}
