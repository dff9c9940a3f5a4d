package dev.hmpagent.context;

import dev.hmpagent.llm.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The compact form of context 0's command list, for a model with a small context window: the signatures of the few
 * commands a person's usual task needs (answer, remember, look up, read and write a file, run a command, wait), then
 * one line naming the other families and how {@code help} lists them. The full catalogue costs a small model a
 * quarter of an 8K window before the person's message; {@code help} lists the families, {@code help <family>} a
 * family's commands with what each does, {@code help <type>} a command's arguments, so nothing is out of reach, only
 * out of the prompt.
 */
final class CompactCommands {
    /**
     * The commands shown with their arguments: what the bench's ten tasks (questions, remember and recall, write a
     * file, list files) and a person's usual asks need, and help, the way to the rest.
     */
    static final Set<String> CORE = Set.of("help", "send_message", "diary_entry", "diary_search", "memory_add",
            "note_read", "idle", "shell", "file_read", "file_write", "file_list");
    /** The tool that runs any command by its type (tools mode); kept with the core tools. */
    private static final String USE = "use";
    private static final String USE_SAYS = "Runs any command by its type with its arguments: {\"type\": \"goal_add\","
            + " \"args\": {...}}. help with {\"type\": \"<command>\"} gives a command's arguments.";

    private CompactCommands() { }

    /**
     * {@code catalog} (the registry's context 0 catalogue: a {@code family:} line and one {@code - type(args) —
     * summary} line per command, or a {@code family: a, b} line) cut to the core commands, then the line naming the
     * other families.
     */
    static String catalog(String catalog) {
        StringBuilder out = new StringBuilder();
        for (String line : catalog.split("\n")) {
            if (line.startsWith("- ") && CORE.contains(type(line))) out.append(line).append('\n');
        }
        return out.append(others(catalog)).append('\n').toString();
    }

    /** The line that says where the other commands are: their families, and how help lists them. */
    static String others(String catalog) {
        List<String> families = new ArrayList<>();
        String family = null;
        for (String line : catalog.split("\n")) {
            if (line.startsWith("- ")) {
                if (family != null && !CORE.contains(type(line)) && !families.contains(family)) families.add(family);
            } else if (line.endsWith(":")) {
                family = line.substring(0, line.length() - 1);
            } else if (line.matches("[^-{][^:{]*: [a-z_.]+(, [a-z_.]+)*")) {
                families.add(line.substring(0, line.indexOf(':')));
            }
        }
        return "More commands, by family (" + String.join("; ", families) + "): help {\"type\": \"<family>\"} lists a"
                + " family's commands with what each does, help {\"type\": \"<command>\"} gives one's arguments and an"
                + " example: {\"type\": \"help\", \"args\": {\"type\": \"goals and tasks\"}}. An argument written"
                + " name? is optional.";
    }

    /**
     * The offered tools cut to the core commands' and {@code use}, which runs any other command by its type; its
     * description without the list of commands that have no tool (context 0 names their families instead).
     */
    static List<ToolSpec> tools(List<ToolSpec> offered) {
        return offered.stream().filter(t -> CORE.contains(t.name()) || t.name().equals(USE))
                .map(t -> t.name().equals(USE) ? new ToolSpec(USE, USE_SAYS, t.schema()) : t).toList();
    }

    /** The command type of a catalogue line {@code - type(args) — summary}. */
    private static String type(String line) {
        int open = line.indexOf('(');
        return open < 0 ? "" : line.substring(2, open);
    }
}
