package dev.hmpagent.commands;

import java.util.List;
import java.util.Optional;

/** The commands every agent has. Argument names follow the HMP columns they fill. */
final class BuiltInCommands {
    private BuiltInCommands() { }

    static List<CommandHandler> all() {
        return List.of(help(), sendMessage(), noteRead(), memoryAdd(), memoryDelete(), diaryEntry(), conceptAdd(),
                linkAdd(), diaryRead(), processClose());
    }

    static CommandHandler help() {
        return SimpleCommand.informing("help", "show the catalog, or the args of one command type",
                "{\"type\": \"diary_entry\"}", (args, ctx) -> {
            Optional<String> type = args.optionalText("type").filter(s -> !s.isBlank());
            if (type.isEmpty()) return CommandOutcome.ok("commands:\n" + ctx.registry().catalog().strip());
            return ctx.registry().find(type.get())
                    .map(h -> CommandOutcome.ok(h.type() + " " + h.argsExample() + " — " + h.summary()))
                    .orElseGet(() -> CommandOutcome.notFound("help: no command type \"" + type.get() + "\"; known: "
                            + String.join(", ", ctx.registry().types())));
        });
    }

    static CommandHandler sendMessage() {
        return new SimpleCommand("send_message", "send a message to the user (shown in their terminal)",
                "{\"text\": \"...\"}", (args, ctx) -> {
            String text = args.requiredText("text");
            long id = ctx.notes().addFromLlm(text, ctx.llmId(), ctx.tickId());
            return new CommandOutcome("ok", "message delivered to the user (note " + id + ")",
                    Optional.of(new UserMessage(id, text)));
        });
    }

    static CommandHandler noteRead() {
        return SimpleCommand.informing("note_read", "read an incoming message by id and mark it read (manual notes mode)",
                "{\"id\": 12}", (args, ctx) -> {
            long id = args.requiredLong("id");
            return ctx.notes().get(id).map(note -> {
                ctx.notes().markRead(List.of(id), ctx.tickId());
                return CommandOutcome.ok("note " + id + " from " + note.source() + " (priority " + note.priority()
                        + ", " + note.timestamp() + "): " + note.text());
            }).orElseGet(() -> CommandOutcome.notFound("note_read: no note with id " + id));
        });
    }

    static CommandHandler memoryAdd() {
        return new SimpleCommand("memory_add", "add an entry to your notebook (llm_memory, shown to you every tick)",
                "{\"title\": \"...\", \"content\": \"...\", \"tags\": \"plan,goal\"}", (args, ctx) -> {
            String content = args.requiredText("content");
            long id = ctx.memory().add(args.optionalText("title").orElse(null), content,
                    args.optionalText("tags").orElse(null), ctx.llmId());
            return CommandOutcome.ok("memory entry " + id + " added");
        });
    }

    static CommandHandler memoryDelete() {
        return new SimpleCommand("memory_delete", "delete an entry from your notebook by id",
                "{\"id\": 3}", (args, ctx) -> {
            long id = args.requiredLong("id");
            return ctx.memory().delete(id) ? CommandOutcome.ok("memory entry " + id + " deleted")
                    : CommandOutcome.notFound("memory_delete: no memory entry with id " + id + "; context 6 lists the ids");
        });
    }

    static CommandHandler diaryEntry() {
        return new SimpleCommand("diary_entry", "write an entry in the cognitive diary (long-term memory)",
                "{\"text\": \"...\", \"tags\": \"observation\", \"priority\": 0}", (args, ctx) -> {
            String text = args.requiredText("text");
            int priority = args.optionalLong("priority").map(Long::intValue).orElse(0);
            long id = ctx.diary().add(text, args.optionalText("tags").orElse(null), priority, ctx.llmId());
            return CommandOutcome.ok("diary entry " + id + " written");
        });
    }

    static CommandHandler conceptAdd() {
        return new SimpleCommand("concept_add", "add a concept to the semantic graph (or update its description)",
                "{\"name\": \"mesh\", \"description\": \"...\"}", (args, ctx) -> {
            String name = args.requiredText("name").strip();
            long id = ctx.concepts().upsert(name, args.optionalText("description").orElse(null), ctx.llmId());
            return CommandOutcome.ok("concept " + id + " \"" + name + "\" saved");
        });
    }

    static CommandHandler linkAdd() {
        return new SimpleCommand("link_add", "link two concepts by name with a relation (is_a, causes, related_to, ...)",
                "{\"from\": \"mesh\", \"to\": \"network\", \"relation_type\": \"is_a\"}", (args, ctx) -> {
            String from = args.requiredText("from").strip();
            String to = args.requiredText("to").strip();
            String relation = args.optionalText("relation_type").filter(s -> !s.isBlank()).orElse("related_to");
            Optional<Long> fromId = ctx.concepts().idOf(from);
            Optional<Long> toId = ctx.concepts().idOf(to);
            if (fromId.isEmpty() || toId.isEmpty()) {
                return CommandOutcome.notFound("link_add: no concept named \"" + (fromId.isEmpty() ? from : to)
                        + "\"; add it first with concept_add");
            }
            long id = ctx.concepts().link(fromId.get(), toId.get(), relation, ctx.llmId());
            return CommandOutcome.ok("link " + id + ": " + from + " " + relation + " " + to);
        });
    }

    static CommandHandler diaryRead() {
        return SimpleCommand.informing("diary_read",
                "show diary entries and concepts (with their links) matching a text or tag in context 3 from the next "
                        + "tick on (empty query: the latest)",
                "{\"query\": \"mesh\", \"limit\": 5}", (args, ctx) -> {
            String query = args.optionalText("query").orElse("");
            long limit = args.optionalLong("limit").orElse(5L);
            if (limit < 1 || limit > 50) throw args.bad("args.limit must be from 1 to 50");
            ctx.settings().put(ContextKeys.DIARY_QUERY, query);
            ctx.settings().put(ContextKeys.DIARY_LIMIT, Long.toString(limit));
            int entries = ctx.diary().search(query, (int) limit).size();
            int concepts = ctx.concepts().search(query, (int) limit).size();
            return CommandOutcome.ok(entries + " diary entr" + (entries == 1 ? "y" : "ies") + " and " + concepts
                    + " concept" + (concepts == 1 ? "" : "s") + " will show in context 3");
        });
    }

    static CommandHandler processClose() {
        return new SimpleCommand("process_close",
                "mark commands/processes you have dealt with as closed so they leave context 2",
                "{\"ids\": [\"c-1\", 42]}", (args, ctx) -> {
            List<String> ids = args.list("ids");
            ids.addAll(args.list("cmd_id"));
            ids.addAll(args.list("id"));
            if (ids.isEmpty()) throw args.bad("args.ids is required (cmd_ids or process_log ids)");
            int closed = 0;
            StringBuilder missing = new StringBuilder();
            for (String id : ids) {
                int n = ctx.processLog().close(id);
                if (n == 0) missing.append(missing.length() == 0 ? "" : ", ").append(id);
                closed += n;
            }
            String result = "closed " + closed + " entr" + (closed == 1 ? "y" : "ies");
            if (missing.length() > 0) return new CommandOutcome(closed > 0 ? "warning" : "error",
                    result + "; not found, not seen by you yet, or already closed: " + missing, Optional.empty(),
                    dev.hmpagent.safety.ErrorCode.ENOENT);
            // nothing to report back: the row is born closed, so it neither shows in context 2 nor wakes the LLM
            return new CommandOutcome("close", result, Optional.empty());
        });
    }
}
