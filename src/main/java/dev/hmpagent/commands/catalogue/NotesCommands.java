package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.store.ProcessStatus;
import dev.hmpagent.text.Text;
import dev.hmpagent.commands.SimpleCommand;
import dev.hmpagent.commands.UserMessage;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.safety.ResultState;
import dev.hmpagent.store.A2aTasksDao;
import dev.hmpagent.store.NoteRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Incoming messages ({@code notes}, context 4): list, read, tag, mark read, reply, and the notes mode (manual:
 * context 4 counts and lists ids; auto: it shows the notes a filter lets through, a person's always).
 */
public final class NotesCommands {
    static final int MAX_LIMIT = 100;
    /** The most characters of a note one note_read returns (what context 2 shows of a result, less its header). */
    static final int PAGE_CHARS = 800;
    private static final String WHERE_IDS = "notes_list or context 4 shows the ids";

    private NotesCommands() { }

    public static List<CommandHandler> all() {
        return List.of(list(), read(), tag(), markRead(), reply(), mode());
    }

    static CommandHandler list() {
        return SimpleCommand.informing("notes_list", "list incoming notes (default unread only) by source or tag",
                "{\"unread_only\": true, \"source\": \"user\", \"tag\": \"mesh\", \"limit\": 20}", (args, ctx) -> {
            boolean unreadOnly = args.optionalBoolean("unread_only").orElse(true);
            String source = args.optionalText("source").map(s -> s.strip().toLowerCase(Locale.ROOT)).orElse("");
            String tag = args.optionalText("tag").map(String::strip).orElse("");
            int limit = args.intWithin("limit", 1, MAX_LIMIT, 20);
            List<NoteRow> rows = ctx.notes().list(unreadOnly, source, tag, limit);
            String which = (source.isEmpty() ? "" : " from " + source) + (tag.isEmpty() ? "" : " tagged " + tag);
            String unread = unreadOnly ? "unread " : "";
            if (rows.isEmpty()) return CommandOutcome.ok("no " + unread + "notes" + which);
            StringBuilder sb = new StringBuilder(rows.size() + " " + unread + (rows.size() == 1 ? "note" : "notes") + which
                    + " (newest first; note_read shows one whole):");
            for (NoteRow n : rows) sb.append("\n- ").append(line(n));
            return CommandOutcome.ok(sb.toString());
        }).takes("unread_only?: boolean, source?: string, tag|tags?: string, limit?: integer");
    }

    /** "12 from user, priority 1, 2026-…, unread, tags x, #a #b, @bob: text…" */
    static String line(NoteRow n) {
        StringBuilder sb = new StringBuilder().append(n.id()).append(" from ").append(n.source()).append(", priority ")
                .append(n.priority()).append(", ").append(n.timestamp()).append(n.read() ? ", read" : ", unread");
        if (n.tags() != null && !n.tags().isBlank()) sb.append(", tags ").append(n.tags());
        n.hashtags().forEach(h -> sb.append(" #").append(h));
        n.mentions().forEach(m -> sb.append(" @").append(m));
        return sb.append(": ").append(Text.oneLine(n.text(), 100)).toString();
    }

    static CommandHandler read() {
        return SimpleCommand.informing("note_read", "read an incoming note by id and mark it read (a long one in pages:"
                        + " from = where one ended)",
                "{\"id\": 12}", (args, ctx) -> {
            long id = args.requiredLong("id");
            long from = args.optionalLong("from").orElse(0L);
            if (from < 0) throw args.bad("args.from is a character offset: 0 or more");
            return ctx.notes().get(id).map(note -> {
                ctx.notes().markRead(List.of(id), ctx.tickId());
                String tags = (note.tags() == null || note.tags().isBlank() ? "" : ", tags " + note.tags())
                        + (note.hashtags().isEmpty() ? "" : ", #" + String.join(" #", note.hashtags()));
                return CommandOutcome.ok("note " + id + " from " + note.source() + " (priority " + note.priority()
                        + ", " + note.timestamp() + tags + "): " + page(note.text(), id, (int) Math.min(from, Integer.MAX_VALUE)));
            }).orElseGet(() -> missing("note_read", id));
        }).takes("id|note_id: integer, from|offset?: integer");
    }

    /**
     * At most {@link #PAGE_CHARS} of {@code text} from character {@code from}, and how to read the next page: a
     * result is shown to the model cut at about a thousand characters, so a longer note is read in pages.
     */
    static String page(String text, long id, int from) {
        if (from == 0 && text.length() <= PAGE_CHARS) return text;
        if (from >= text.length()) return "(nothing from character " + from + ": the note has " + text.length() + ")";
        int end = Math.min(text.length(), from + PAGE_CHARS);
        if (end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) end--;
        String head = from == 0 ? "" : "(from character " + from + " of " + text.length() + ") ";
        return head + text.substring(from, end) + (end == text.length() ? "" : "… (" + (text.length() - end)
                + " more chars: note_read {\"id\": " + id + ", \"from\": " + end + "})");
    }

    static CommandHandler tag() {
        return new SimpleCommand("note_tag", "set the tags of a note (replaces them; \"\" clears)",
                "{\"id\": 12, \"tags\": \"mesh,later\"}", (args, ctx) -> {
            long id = args.requiredLong("id");
            String tags = args.optionalText("tags").orElseThrow(() -> args.bad("args.tags is required (\"\" clears)"));
            String clean = String.join(",", NoteFilter.tagList(tags));
            return ctx.notes().setTags(id, clean.isEmpty() ? null : clean)
                    ? CommandOutcome.ok("note " + id + (clean.isEmpty() ? " has no tags now" : " tagged " + clean))
                    : missing("note_tag", id);
        }).takes("id|note_id: integer, tags|tag: string");
    }

    static CommandHandler markRead() {
        return new SimpleCommand("note_mark_read", "mark notes read without reading them (they leave context 4)",
                "{\"ids\": [12, 13]}", (args, ctx) -> {
            List<String> given = args.list("ids");
            given.addAll(args.list("id"));
            if (given.isEmpty()) throw args.bad("args.ids is required (note ids)");
            List<Long> found = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            for (String s : given) {
                Optional<NoteRow> note = s.strip().matches("\\d{1,18}") ? ctx.notes().get(Long.parseLong(s.strip()))
                        : Optional.empty();
                if (note.isPresent()) found.add(note.get().id());
                else missing.add(s);
            }
            ctx.notes().markRead(found, ctx.tickId());
            String result = "marked " + Text.count(found.size(), "note", "notes") + " read";
            if (missing.isEmpty()) return CommandOutcome.ok(result);
            String problem = "; no note with id " + String.join(", ", missing) + " (" + WHERE_IDS + ")";
            return found.isEmpty() ? CommandOutcome.notFound("note_mark_read: " + result + problem)
                    : CommandOutcome.warning(result + problem);
        }).takes("ids|id: array");
    }

    static CommandHandler reply() {
        return new SimpleCommand("note_reply", "answer a note: the person sees it; it is stored linked to the note",
                "{\"id\": 12, \"text\": \"...\"}", (args, ctx) -> {
            long id = args.requiredLong("id");
            String text = args.requiredText("text");
            Optional<NoteRow> note = ctx.notes().get(id);
            if (note.isEmpty()) return missing("note_reply", id);
            if (note.get().source().equals("llm")) {
                return CommandOutcome.error("note_reply: note " + id + " is your own message; reply to an incoming note ("
                        + WHERE_IDS + ")");
            }
            long reply = ctx.notes().addReplyFromLlm(text, ctx.llmId(), ctx.tickId(), id);
            ctx.notes().markRead(List.of(id), ctx.tickId());
            String source = note.get().source();
            if (source.equals("user") || source.equals("cli")) {
                return new CommandOutcome(ProcessStatus.OK.column(), "reply delivered to the person (note " + reply + ", answering note " + id + ")",
                        Optional.of(new UserMessage(reply, text)));
            }
            Optional<A2aTasksDao.Task> task = ctx.tables().a2aTasks().byNote(id);
            if (task.isPresent()) {   // a peer's A2A message: the reply is the answer the peer waits for
                boolean sent = ctx.tables().a2aTasks().end(task.get().id(), "completed", text, null);
                return CommandOutcome.ok(sent ? ResultState.A2A_ANSWERED + task.get().caller() + " (A2A task "
                        + task.get().id() + "; note " + reply + ")" : "reply stored as note " + reply + "; the peer's"
                        + " A2A task " + task.get().id() + " was " + task.get().state() + " already, so it is not sent");
            }
            return CommandOutcome.ok("reply stored as note " + reply + ", answering note " + id + " from " + source
                    + "; it is not sent anywhere: a peer gets messages through peer_message");
        }).takes("id|note_id: integer, text|message|content: string");
    }

    static CommandHandler mode() {
        return new SimpleCommand("notes_mode", "manual (counts and ids) or auto (filtered notes in full), from the next tick",
                "{\"mode\": \"auto\", \"filter\": {\"tags\": [\"mesh\"], \"min_priority\": 1, \"since\": \"2026-11-21\", "
                        + "\"sources\": [\"cli\", \"peer\"]}}",
                (args, ctx) -> SettingsCommands.notesMode(args, ctx, args.requiredText("mode"),
                        args.node().get("filter"))).takes("mode: string, filter?: object");
    }

    private static CommandOutcome missing(String type, long id) {
        return CommandOutcome.notFound(type + ": no note with id " + id + "; " + WHERE_IDS);
    }
}
