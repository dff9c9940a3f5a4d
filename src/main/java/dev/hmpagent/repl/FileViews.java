package dev.hmpagent.repl;

import dev.hmpagent.store.ConceptsDao;
import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.DiaryRow;
import dev.hmpagent.store.LinkRow;
import dev.hmpagent.store.MemoryDao;
import dev.hmpagent.store.MemoryRow;
import dev.hmpagent.store.NoteRow;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What /notes, /memory, /diary, /graph and /ps show of the file: bounded lists, one printable line per row, times in
 * the person's zone. Reads only; every method may throw the store's exception, which {@link Inspect} turns into a line.
 */
final class FileViews {
    static final int TEXT_CHARS = 80;
    static final int MEMORY_SHOWN = 10;
    static final int DIARY_SHOWN = 10;
    static final int MOST_LINKED = 10;
    static final int LINKS_SHOWN = 30;
    static final int FINISHED_SHOWN = 10;
    static final int IN_FLIGHT_SHOWN = 30;

    private final NotesDao notes;
    private final MemoryDao memory;
    private final DiaryDao diary;
    private final ConceptsDao concepts;
    private final ProcessLogDao processes;
    private final LocalTimes times;

    FileViews(Store store, LocalTimes times) {
        Objects.requireNonNull(store, "store");
        this.notes = store.tables().notes();
        this.memory = store.tables().memory();
        this.diary = store.tables().diary();
        this.concepts = store.tables().concepts();
        this.processes = store.tables().processLog();
        this.times = Objects.requireNonNull(times, "times");
    }

    /** The unread count, then the latest {@code n} notes of any source, newest last. */
    String notes(int n) {
        List<NoteRow> rows = new ArrayList<>(notes.latest(n));
        long unread = notes.unreadCount();
        if (rows.isEmpty()) return "no notes yet";
        java.util.Collections.reverse(rows);
        int sourceWidth = rows.stream().mapToInt(r -> source(r).length()).max().orElse(0);
        StringBuilder sb = new StringBuilder(unread + " unread · the latest " + rows.size() + " notes, newest last:");
        for (NoteRow r : rows) {
            sb.append("\n  #").append(r.id()).append("  ").append(times.at(r.timestamp())).append("  ")
                    .append(pad(source(r), sourceWidth)).append("  ").append(r.read() ? "read  " : "unread").append("  ")
                    .append(Printable.oneLine(r.text(), TEXT_CHARS));
        }
        return sb.toString();
    }

    /** llm_memory entries whose title, content or tags contain {@code query} (all when blank), newest first. */
    String memory(String query) {
        List<MemoryRow> rows = memory.search(query, MEMORY_SHOWN);
        long total = memory.searchCount(query);
        if (rows.isEmpty()) {
            return query.isEmpty() ? "llm_memory is empty: the agent has written no memory entry yet"
                    : "no llm_memory entry contains \"" + Printable.oneLine(query, 40) + "\" (of " + memory.count() + ")";
        }
        StringBuilder sb = new StringBuilder(heading("llm_memory", total, rows.size(), query, "/memory <words> narrows"));
        for (MemoryRow r : rows) {
            String title = r.title() == null || r.title().isBlank() ? "(untitled)" : Printable.oneLine(r.title(), 40);
            sb.append("\n  #").append(r.id()).append("  ").append(title).append(tags(r.tags())).append("  ")
                    .append(Printable.oneLine(r.content(), TEXT_CHARS));
        }
        return sb.toString();
    }

    /** diary_entries whose text or tags contain {@code query} (all when blank), newest first. */
    String diary(String query) {
        List<DiaryRow> rows = diary.search(query, DIARY_SHOWN);
        long total = diary.searchCount(query);
        if (rows.isEmpty()) {
            return query.isEmpty() ? "the diary is empty: the agent has written no entry yet"
                    : "no diary entry contains \"" + Printable.oneLine(query, 40) + "\"";
        }
        StringBuilder sb = new StringBuilder(heading("diary", total, rows.size(), query, "/diary <words> narrows"));
        for (DiaryRow r : rows) {
            sb.append("\n  #").append(r.id()).append("  ").append(times.at(r.timestamp())).append(tags(r.tags()))
                    .append(r.pinned() ? "  pinned" : "").append("  ").append(Printable.oneLine(r.text(), TEXT_CHARS));
        }
        return sb.toString();
    }

    /** Without a name: the size of the graph and its most linked concepts; with one: that concept and its links. */
    String graph(String name) {
        if (name.isEmpty()) return graphSummary();
        Optional<Long> id = concepts.idOfIgnoringCase(name);
        if (id.isEmpty()) {
            List<String> near = concepts.namesLike(name, 5);
            return "no concept named \"" + Printable.oneLine(name, 40) + "\""
                    + (near.isEmpty() ? "; /graph lists the most linked ones"
                    : "; similar: " + String.join(", ", near.stream().map(n -> Printable.oneLine(n, 40)).toList()));
        }
        var concept = concepts.get(id.get());
        if (concept.isEmpty()) return "the concept \"" + Printable.oneLine(name, 40) + "\" was just deleted";
        String description = concept.get().description();
        StringBuilder sb = new StringBuilder("concept " + Printable.oneLine(concept.get().name(), 60) + " (#" + id.get()
                + ")" + (concept.get().pinned() ? ", pinned" : "") + ": "
                + (description.isBlank() ? "(no description)" : Printable.oneLine(description, 2 * TEXT_CHARS)));
        List<LinkRow> links = concepts.linksOf(id.get());
        if (links.isEmpty()) return sb.append("\n  no links").toString();
        for (LinkRow l : links.subList(0, Math.min(LINKS_SHOWN, links.size()))) {
            sb.append("\n  ").append(l.fromId() == id.get() ? "out: " : "in:  ").append(Printable.oneLine(l.text(), 120));
        }
        if (links.size() > LINKS_SHOWN) sb.append("\n  … and ").append(links.size() - LINKS_SHOWN).append(" more links");
        return sb.toString();
    }

    private String graphSummary() {
        long count = concepts.count();
        if (count == 0) return "the graph is empty: no concepts yet";
        List<ConceptsDao.Degree> top = concepts.mostLinked(MOST_LINKED);
        StringBuilder sb = new StringBuilder("graph: " + count + " concepts, " + concepts.linkCount() + " links; most linked:");
        for (ConceptsDao.Degree d : top) {
            sb.append("\n  ").append(Printable.oneLine(d.name(), 60)).append("  (").append(d.links())
                    .append(d.links() == 1 ? " link)" : " links)");
        }
        return sb.append("\n/graph <concept> shows one with its links").toString();
    }

    /** The commands in flight (pending, running) first, then the latest finished ones. */
    String processes() {
        List<ProcessLogDao.Listed> running = processes.inFlightListed(IN_FLIGHT_SHOWN);
        List<ProcessLogDao.Listed> finished = processes.latestFinished(FINISHED_SHOWN);
        if (running.isEmpty() && finished.isEmpty()) return "no commands yet";
        List<ProcessLogDao.Listed> all = new ArrayList<>(running);
        all.addAll(finished);
        int idWidth = all.stream().mapToInt(p -> Long.toString(p.row().id()).length()).max().orElse(0) + 1;
        int nameWidth = all.stream().mapToInt(p -> Printable.oneLine(p.row().name(), 24).length()).max().orElse(0);
        int statusWidth = all.stream().mapToInt(p -> Printable.oneLine(p.row().status(), 12).length()).max().orElse(0);
        StringBuilder sb = new StringBuilder(running.isEmpty() ? "nothing in flight" : "in flight:");
        for (ProcessLogDao.Listed p : running) sb.append('\n').append(line(p, p.about(), idWidth, nameWidth, statusWidth));
        if (!finished.isEmpty()) sb.append("\nlatest finished:");
        for (ProcessLogDao.Listed p : finished) {
            String shown = p.row().result() == null || p.row().result().isBlank() ? p.about() : p.row().result();
            sb.append('\n').append(line(p, shown, idWidth, nameWidth, statusWidth));
        }
        return sb.toString();
    }

    private String line(ProcessLogDao.Listed p, String text, int idWidth, int nameWidth, int statusWidth) {
        return "  " + pad("#" + p.row().id(), idWidth) + "  " + pad(Printable.oneLine(p.row().name(), 24), nameWidth)
                + "  " + pad(Printable.oneLine(p.row().status(), 12), statusWidth) + "  "
                + pad(times.age(p.row().timestamp()), 6) + "  " + Printable.oneLine(text, TEXT_CHARS);
    }

    private static String heading(String what, long total, int shown, String query, String narrow) {
        String matching = query.isEmpty() ? "" : " containing \"" + Printable.oneLine(query, 40) + "\"";
        String more = total > shown ? " (the " + shown + " newest; " + (total - shown) + " more"
                + (query.isEmpty() ? ", " + narrow : "") + ")" : "";
        return what + ": " + total + (total == 1 ? " entry" : " entries") + matching + ", newest first" + more + ":";
    }

    private static String source(NoteRow r) {
        return r.source() == null ? "user" : Printable.oneLine(r.source(), 12);
    }

    private static String tags(String tags) {
        return tags == null || tags.isBlank() ? "" : "  [" + Printable.oneLine(tags, 40) + "]";
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
