package dev.hmpagent.context;

import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.NoteRow;
import dev.hmpagent.store.NotesDao;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Context 4: incoming messages. Auto mode shows the unread notes the filter lets through, at most
 * {@code perSourceCap} from any one source per tick, a person's own (source user) first, their text fenced as data;
 * the rest stay unread and wake the LLM again. Manual mode shows counts and ids only (the LLM reads with note_read).
 */
final class IncomingContext {
    static final int INDEX = 4;
    static final int MAX_HASHTAGS_COUNTED = 10;
    private static final int MAX_NOTE_CHARS = 4_000;

    private final NotesDao notes;
    private final int perSourceCap;

    IncomingContext(NotesDao notes, int perSourceCap) {
        this.notes = Objects.requireNonNull(notes, "notes");
        if (perSourceCap < 1) throw new IllegalArgumentException("perSourceCap < 1: " + perSourceCap);
        this.perSourceCap = perSourceCap;
    }

    Section render(ContextSettings settings, DataFence fence) {
        if (settings.manualNotes()) return manual(settings);
        Section s = new Section(INDEX, "incoming messages (a person's first)", "(no unread messages)", false, 1);
        List<NoteRow> shown = notes.unreadCapped(settings.autoFilter(), perSourceCap, settings.notesLimit());
        for (NoteRow n : shown) {
            s.add("[note " + n.id() + " from " + n.source() + ", priority " + n.priority() + ", " + n.timestamp()
                    + hashtags(n) + "] ", fence.wrap("note " + n.id(), Section.clip(n.text(), MAX_NOTE_CHARS)), n.id());
        }
        long waiting = notes.unreadCount(settings.autoFilter()) - shown.size();
        if (waiting > 0) {
            s.add("(" + waiting + " more unread wait for later ticks: at most " + perSourceCap + " from one source and "
                    + settings.notesLimit() + " in all each tick)", 0);
        }
        return s;
    }

    /**
     * The highest note id the prompt presented. Manual mode: the header counts every unread note, so all of them.
     * Auto mode: the highest id up to which every note the filter lets through was shown. A note held back (by the
     * per-source cap, the limit or the budget) lies above it, so it still counts as new and is shown at a later tick,
     * even when notes with higher ids were shown now.
     */
    long watermark(ContextSettings settings, List<Long> shown) {
        if (settings.manualNotes()) return notes.maxUnreadId(NoteFilter.ALL);
        long firstHeldBack = notes.minUnreadIdExcept(settings.autoFilter(), shown);
        long maxShown = shown.stream().mapToLong(Long::longValue).max().orElse(0);
        return firstHeldBack == 0 ? maxShown : Math.min(maxShown, firstHeldBack - 1);
    }

    private static String hashtags(NoteRow n) {
        return n.hashtags().isEmpty() ? "" : ", #" + String.join(" #", n.hashtags());
    }

    /**
     * Manual mode: counts by priority, source and hashtag, and the ids (a person's first, at most
     * {@link #perSourceCap} per source); a header item and one item per note; the header is never trimmed.
     */
    private Section manual(ContextSettings settings) {
        Section s = new Section(INDEX, "incoming messages", "(no unread messages)", false, 2);
        long total = notes.unreadCount();
        if (total == 0) return s;
        String tags = joined(notes.unreadCountsByHashtag(MAX_HASHTAGS_COUNTED), "#");
        s.add(total + " unread (" + joined(notes.unreadCountsByPriority(), "priority ") + "). By source: "
                + joined(notes.unreadCountsBySource(), "") + "." + (tags.isEmpty() ? "" : " By hashtag: " + tags + ".")
                + " Read one with note_read. Ids:", 0);
        for (NoteRow n : notes.unreadCapped(NoteFilter.ALL, perSourceCap, settings.notesLimit())) {
            s.add("- " + n.id() + " (priority " + n.priority() + ", from " + n.source() + ", " + n.timestamp()
                    + hashtags(n) + ")", n.id());
        }
        return s;
    }

    /** "{prefix}key: count, …" in the map's order. */
    private static String joined(Map<?, Long> counts, String prefix) {
        StringBuilder sb = new StringBuilder();
        counts.forEach((key, n) -> sb.append(sb.length() == 0 ? "" : ", ").append(prefix).append(key).append(": ").append(n));
        return sb.toString();
    }
}
