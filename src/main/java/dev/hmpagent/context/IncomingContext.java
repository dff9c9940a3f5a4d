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
    /** The share of the tokens left for contexts 1-6 that one message from a person may take (in percent). */
    static final int PERSON_SHARE_PERCENT = 60;

    /** A person's message the prompt shows only the start of: {@code shown} of its {@code total} characters. */
    record Cut(long noteId, int shown, int total) { }

    private final NotesDao notes;
    private final int perSourceCap;

    IncomingContext(NotesDao notes, int perSourceCap) {
        this.notes = Objects.requireNonNull(notes, "notes");
        if (perSourceCap < 1) throw new IllegalArgumentException("perSourceCap < 1: " + perSourceCap);
        this.perSourceCap = perSourceCap;
    }

    /**
     * Context 4 with every note the filter lets through this tick. A person's message (typed, or sent with {@code agent note}) is their task: it is shown
     * whole up to {@link #PERSON_SHARE_PERCENT} % of {@code tokensLeft} (the budget after context 0), never less than
     * a note from elsewhere; a longer one is cut there, says how much more there is and how to read it, and is added
     * to {@code cuts} so the person can be told.
     */
    Section render(ContextSettings settings, DataFence fence, int tokensLeft, List<Cut> cuts) {
        if (settings.manualNotes()) return manual(settings);
        Section s = new Section(INDEX, "incoming messages (a person's first)", "(no unread messages)", false, 1);
        List<NoteRow> shown = notes.unreadCapped(settings.autoFilter(), perSourceCap, settings.notesLimit());
        int personChars = personChars(tokensLeft);
        for (NoteRow n : shown) {
            String text = n.text();
            boolean person = NoteFilter.PERSON_OR_CLI.sources().contains(n.source());
            if (person && text.length() > personChars) {
                int at = Character.isHighSurrogate(text.charAt(personChars - 1)) ? personChars - 1 : personChars;
                cuts.add(new Cut(n.id(), at, text.length()));
                text = text.substring(0, at) + "… (" + (text.length() - at) + " more chars of this message: read them"
                        + " with note_read {\"id\": " + n.id() + ", \"from\": " + at + "})";
            } else if (!person) {
                text = Section.clip(text, MAX_NOTE_CHARS);
            }
            s.add("[note " + n.id() + " from " + n.source() + ", priority " + n.priority() + ", " + n.timestamp()
                    + hashtags(n) + "] ", fence.wrap("note " + n.id(), text), n.id());
        }
        long waiting = notes.unreadCount(settings.autoFilter()) - shown.size();
        if (waiting > 0) {
            s.add("(" + waiting + " more unread wait for later ticks: at most " + perSourceCap + " from one source and "
                    + settings.notesLimit() + " in all each tick)", 0);
        }
        return s;
    }

    /** The most characters of one message from a person the prompt shows, with {@code tokensLeft} for contexts 1-6. */
    static int personChars(int tokensLeft) {
        long chars = (long) tokensLeft * 4 * PERSON_SHARE_PERCENT / 100;   // ~4 characters a token
        return (int) Math.max(MAX_NOTE_CHARS, Math.min(Integer.MAX_VALUE / 2, chars));
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
