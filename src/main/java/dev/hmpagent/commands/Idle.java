package dev.hmpagent.commands;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.SettingsDao;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The LLM's own idle (HMP: the agent may rest until something happens), stored in the {@code config} table: until
 * a time (always, at the latest {@code cycle.max_idle_s} after it began), and optionally until a process finishes,
 * a note matching a filter arrives, or a file under the roots changes. Any one of them ends it; a person's message
 * always does. While idle the agent makes no LLM call.
 *
 * @param afterNoteId the newest note when idle began: only later notes count
 * @param processId   a process_log row whose end ends idle, or 0
 * @param noteFilter  the JSON of a {@link NoteFilter} whose notes end idle, or ""
 * @param file        a canonical path whose change ends idle, or ""
 * @param fileStamp   that file's size and modification time when idle began ("" when it did not exist)
 * @param timed       the LLM gave its time ({@code seconds}): a timer of its own, which a drain ({@code --until-idle},
 *                    piped input) waits for; without, {@link #until} is only the bound {@code cycle.max_idle_s}
 */
public record Idle(long sinceTick, Instant until, long afterNoteId, long processId, String noteFilter, String file,
                   String fileStamp, boolean timed) {
    /** The config key that holds it. */
    public static final String KEY = "cycle.idle";
    private static final ObjectMapper JSON = Json.mapper();
    private static final NoteFilter PERSON = new NoteFilter(Integer.MIN_VALUE, java.util.List.of(),
            java.util.List.of("user"), "");
    /** A peer's A2A message: a task someone waits on the answer of (issue 37), so it ends an idle as a person's does. */
    private static final NoteFilter A2A_PEER = new NoteFilter(Integer.MIN_VALUE, java.util.List.of("a2a"),
            java.util.List.of("peer"), "");

    public Idle {
        Objects.requireNonNull(until, "until");
        Objects.requireNonNull(noteFilter, "noteFilter");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(fileStamp, "fileStamp");
    }

    /** An idle whose time the LLM did not give: until {@code until}, the bound {@code cycle.max_idle_s}, at most. */
    public Idle(long sinceTick, Instant until, long afterNoteId, long processId, String noteFilter, String file,
                String fileStamp) {
        this(sinceTick, until, afterNoteId, processId, noteFilter, file, fileStamp, false);
    }

    /** The idle in force, if any; an unreadable stored value counts as none (and is dropped by the caller's next write). */
    public static Optional<Idle> read(SettingsDao settings) {
        return settings.get(KEY).flatMap(Idle::parse);
    }

    static Optional<Idle> parse(String json) {
        try {
            JsonNode n = JSON.readTree(json);
            return Optional.of(new Idle(n.path("since_tick").asLong(), Instant.parse(n.path("until").asText()),
                    n.path("after_note").asLong(), n.path("process").asLong(), n.path("note_filter").asText(""),
                    n.path("file").asText(""), n.path("file_stamp").asText(""), n.path("timed").asBoolean(false)));
        } catch (JsonProcessingException | RuntimeException e) {
            return Optional.empty();
        }
    }

    public String toJson() {
        ObjectNode n = JSON.createObjectNode();
        n.put("since_tick", sinceTick);
        n.put("until", until.toString());
        n.put("after_note", afterNoteId);
        n.put("process", processId);
        n.put("note_filter", noteFilter);
        n.put("file", file);
        n.put("file_stamp", fileStamp);
        n.put("timed", timed);
        return n.toString();
    }

    /**
     * Why idle ends now, or empty while it goes on; {@code timeUp}: its time has passed (the caller measures it on the
     * monotonic clock, {@link #until} being only where it is kept).
     */
    public Optional<String> ended(boolean timeUp, NotesDao notes, ProcessLogDao processLog) {
        if (notes.maxUnreadId(PERSON) > afterNoteId) return Optional.of("a message from a person");
        if (notes.maxUnreadId(A2A_PEER) > afterNoteId) return Optional.of("a peer's A2A message, which waits for an answer");
        if (timeUp) return Optional.of("the time you set passed");
        if (processId > 0 && processLog.status(processId).map(s -> !s.inFlight()).orElse(true)) {
            return Optional.of("process " + processId + " finished");
        }
        if (!noteFilter.isEmpty() && notes.maxUnreadId(NoteFilter.fromJson(noteFilter)) > afterNoteId) {
            return Optional.of("a note matching your filter arrived");
        }
        if (!file.isEmpty() && !stamp(Path.of(file)).equals(fileStamp)) return Optional.of(file + " changed");
        return Optional.empty();
    }

    /** Size and modification time, or "" when the file does not exist. */
    public static String stamp(Path file) {
        try {
            return Files.size(file) + "@" + Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS).toMillis();
        } catch (IOException e) {
            return "";
        }
    }
}
