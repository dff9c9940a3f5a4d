package dev.hmpagent.store;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Makes sure a message for the agent is never lost when its file cannot be written right now
 * (another process holds the write lock, the disk is full). {@link #submit} stores the note at
 * once when it can; otherwise it appends it to a spool file beside the database
 * ({@code agent.db.inbox}, one JSON object per line, flushed to disk) and {@link #flush} stores it
 * later, in order, as soon as the file takes writes again, at the latest at the next start. Other
 * processes ({@code agent note}) may append to the same spool: every access holds an exclusive
 * lock on it. When even the spool cannot be written (the disk is full), the note is held in
 * memory, retried with the spool, and {@link #keepForNextStart()} says at the end what could not
 * be kept anywhere. Thread-safe; the database connection should have a short busy timeout, since
 * callers wait on this object's monitor while it writes.
 */
public final class NoteSpool {
    /**
     * What became of a submitted note: stored with an id, or waiting (in the spool file, or in
     * memory when even that could not be written) because of {@code problem}.
     */
    public record Submitted(long noteId, String problem, boolean inMemory) {
        /** True when the note is in the database now; false when it waits. */
        public boolean stored() { return noteId > 0; }
    }

    private static final ObjectMapper JSON = Json.mapper();

    /** A note held in memory because neither the database nor the spool could take it. */
    private record Held(String text, String source, int priority, String tags) { }

    private final Path file;
    private final NotesDao notes;
    private final Store store;
    private final List<Held> held = new ArrayList<>();   // guarded by this

    public NoteSpool(Store store, NotesDao notes) {
        this.store = Objects.requireNonNull(store, "store");
        this.notes = Objects.requireNonNull(notes, "notes");
        this.file = fileFor(store.path());
    }

    /** The spool of the database at {@code db}. */
    public static Path fileFor(Path db) {
        return db.resolveSibling(db.getFileName() + ".inbox");
    }

    public Path file() { return file; }

    /**
     * Stores a note, or keeps it in the spool when the database cannot take it now (or when older
     * notes still wait there, so order is kept).
     */
    public synchronized Submitted submit(String text, String source, int priority, String tags) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        String problem;
        if (waiting() == 0) {
            try {
                return new Submitted(notes.add(text, source, priority, tags), "", false);
            } catch (StoreException e) {
                problem = e.getMessage();
            }
        } else {
            problem = "older messages still wait to be stored";   // the retry stores them, in order
        }
        try {
            append(file, text, source, priority, tags);
            return new Submitted(0, problem, false);
        } catch (UncheckedIOException e) {
            held.add(new Held(text, source, priority, tags));
            return new Submitted(0, problem + "; " + file.getFileName() + " could not be written either ("
                    + e.getCause().getMessage() + ")", true);
        }
    }

    /**
     * Stores every waiting note (the spool's, then those held in memory) in one transaction and
     * empties the spool; returns how many were stored. When the database still cannot be written,
     * they stay and the StoreException says why.
     */
    public synchronized int flush() {
        FileChannel ch;
        try {
            ch = Files.exists(file) ? FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE) : null;
        } catch (IOException e) {
            ch = null;   // the spool cannot be opened now: what memory holds is stored all the same
        }
        if (ch == null) return storeAll(List.of(), null);
        try (FileChannel open = ch; FileLock ignored = open.lock()) {
            return storeAll(read(open), open);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the message spool " + file + ": " + e.getMessage(), e);
        }
    }

    private int storeAll(List<Held> spooled, FileChannel ch) throws UncheckedIOException {
        List<Held> all = new ArrayList<>(spooled);
        all.addAll(held);
        if (all.isEmpty()) return 0;
        store.inTransaction(() -> all.forEach(n -> notes.add(n.text(), n.source(), n.priority(), n.tags())));
        held.clear();
        if (ch != null && !spooled.isEmpty()) {
            try {
                ch.truncate(0);
                ch.force(true);
                // emptied, so removed (under its lock: a writer that opened it before checks, after its own lock, that
                // the file it holds is still the spool, and opens the new one if not)
                Files.deleteIfExists(file);
            } catch (IOException e) {
                throw new UncheckedIOException("stored the waiting messages but could not empty " + file
                        + " (" + e.getMessage() + "): remove it, or they are stored again at the next start", e);
            }
        }
        return all.size();
    }

    /**
     * At the end of a run: moves notes held in memory to the spool, for the next start; returns
     * the texts that could not be kept even there (say them to the person, or they are lost).
     */
    public synchronized List<String> keepForNextStart() {
        List<String> lost = new ArrayList<>();
        for (Held h : held) {
            try {
                append(file, h.text(), h.source(), h.priority(), h.tags());
            } catch (UncheckedIOException e) {
                lost.add(h.text());
            }
        }
        held.clear();
        return lost;
    }

    /** Unread incoming notes in the database (for /status; the spool's connection is not shared). */
    public synchronized long unread() {
        return notes.unreadCount();
    }

    /** How many notes wait to be stored: in the spool (when it can be read) and in memory. */
    public synchronized int waiting() {
        if (!Files.exists(file)) return held.size();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
             FileLock ignored = ch.lock()) {
            return read(ch).size() + held.size();
        } catch (IOException e) {
            return held.size();
        }
    }

    /** How many notes wait in the spool of {@code db}, read under a shared lock (for another process's status). */
    public static int waitingIn(Path db) {
        Path spool = fileFor(db);
        if (!Files.exists(spool)) return 0;
        try (FileChannel ch = FileChannel.open(spool, StandardOpenOption.READ);
             FileLock ignored = ch.lock(0, Long.MAX_VALUE, true)) {
            return read(ch).size();
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * Appends one note to the spool of {@code db} without touching the database: for a process
     * that could not write the file.
     */
    public static void spool(Path db, String text, String source, int priority, String tags) {
        append(fileFor(db), text, source, priority, tags);
    }

    private static void append(Path spool, String text, String source, int priority, String tags) {
        ObjectNode line = JSON.createObjectNode().put("text", text).put("source", source).put("priority", priority);
        if (tags != null) line.put("tags", tags);
        byte[] bytes;
        try {
            bytes = (JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a note as JSON", e);
        }
        try {
            for (int attempt = 1; ; attempt++) {
                Object before = fileKey(spool);
                try (FileChannel ch = FileChannel.open(spool, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                     FileLock ignored = ch.lock()) {
                    // the file opened is the spool only if the path named the same file before the open and after
                    // the lock: otherwise an agent emptied and removed it meanwhile, and a line written would be lost
                    if (before == null || !before.equals(fileKey(spool))) {
                        if (attempt < 100) continue;
                        throw new IOException("it was removed and made again 100 times while this note was written");
                    }
                    ch.position(ch.size());
                    ByteBuffer buffer = ByteBuffer.wrap(bytes);
                    while (buffer.hasRemaining()) ch.write(buffer);
                    ch.force(true);
                    return;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the message could be stored neither in the database nor in " + spool
                    + " (" + e.getMessage() + ")", e);
        }
    }

    /** The identity of the file at {@code path} (device and inode), or null when there is none. */
    private static Object fileKey(Path path) {
        try {
            return Files.readAttributes(path, java.nio.file.attribute.BasicFileAttributes.class,
                    java.nio.file.LinkOption.NOFOLLOW_LINKS).fileKey();
        } catch (IOException e) {
            return null;
        }
    }

    /** The complete lines of the spool; a torn last line (a crash mid-append) is skipped. */
    private static List<Held> read(FileChannel ch) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 8, ch.size()));
        ch.position(0);
        while (buffer.hasRemaining() && ch.read(buffer) > 0) {
            // keep reading
        }
        String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
        List<Held> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) continue;
            try {
                JsonNode n = JSON.readTree(line);
                if (n != null && n.path("text").isTextual()) {
                    out.add(new Held(n.path("text").asText(), n.path("source").asText("user"), n.path("priority").asInt(0),
                            n.path("tags").isTextual() ? n.path("tags").asText() : null));
                }
            } catch (JsonProcessingException e) {
                // a torn line: the crash happened before the note was fully written, so it was never acknowledged
            }
        }
        return out;
    }
}
