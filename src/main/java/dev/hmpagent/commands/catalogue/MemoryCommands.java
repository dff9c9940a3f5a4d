package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.text.Text;
import dev.hmpagent.commands.SimpleCommand;
import dev.hmpagent.store.MemoryRow;
import dev.hmpagent.store.NoteFilter;
import java.util.List;

/** The LLM's notebook ({@code llm_memory}, context 6): add, list, delete. Written only by these commands. */
public final class MemoryCommands {
    static final int MAX_LIMIT = 50;

    private MemoryCommands() { }

    public static List<CommandHandler> all() {
        return List.of(add(), list(), delete());
    }

    static CommandHandler add() {
        return new SimpleCommand("memory_add", "add an entry to your notebook (llm_memory, shown to you every tick)",
                "{\"title\": \"...\", \"content\": \"...\", \"tags\": \"plan,goal\"}", (args, ctx) -> {
            String content = args.requiredText("content");
            long id = ctx.memory().add(args.optionalText("title").orElse(null), content,
                    args.optionalText("tags").orElse(null), ctx.llmId());
            return CommandOutcome.ok("memory entry " + id + " added");
        }).takes("title?: string, content|text: string, tags?: string");
    }

    static CommandHandler list() {
        return SimpleCommand.informing("memory_list", "list notebook entries, optionally only those with a tag",
                "{\"tags\": \"plan\", \"limit\": 10}", (args, ctx) -> {
            List<String> tags = NoteFilter.tagList(args.optionalText("tags").orElse(""));
            int limit = args.intWithin("limit", 1, MAX_LIMIT, 10);
            List<MemoryRow> rows = ctx.memory().withTags(tags, limit);
            String which = tags.isEmpty() ? "" : " tagged " + String.join(" or ", tags);
            if (rows.isEmpty()) return CommandOutcome.ok("no notebook entries" + which);
            StringBuilder sb = new StringBuilder(Text.count(rows.size(), "notebook entry", "notebook entries") + which
                    + " (newest first):");
            for (MemoryRow m : rows) {
                sb.append("\n[memory ").append(m.id()).append(m.tags() == null ? "" : ", tags " + m.tags()).append("] ")
                        .append(m.title() == null ? "" : m.title() + ": ").append(Text.oneLine(m.content(), 160));
            }
            return CommandOutcome.ok(sb.toString());
        }).takes("tags|tag?: string, limit?: integer");
    }

    static CommandHandler delete() {
        return new SimpleCommand("memory_delete", "delete an entry from your notebook by id",
                "{\"id\": 3}", (args, ctx) -> {
            long id = args.requiredLong("id");
            return ctx.memory().delete(id) ? CommandOutcome.ok("memory entry " + id + " deleted")
                    : CommandOutcome.notFound("memory_delete: no memory entry with id " + id + "; context 6 lists the ids");
        }).takes("id: integer");
    }
}
