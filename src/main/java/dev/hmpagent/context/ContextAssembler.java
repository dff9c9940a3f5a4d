package dev.hmpagent.context;

import dev.hmpagent.commands.ContextKeys;
import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.store.ConceptRow;
import dev.hmpagent.store.ConceptsDao;
import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.DiaryRow;
import dev.hmpagent.store.MemoryDao;
import dev.hmpagent.store.MemoryRow;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.NoteRow;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.ResponseRow;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.SettingsDao;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Builds the prompt of one tick: context 0 as the system message, contexts 1-6 as one user
 * message fitted to the prompt budget (context 1 trimmed first, then 3, 6, 2, 4, 5). The user
 * message is ordered stable-first (6 notebook, 3 requested entries, 1 replies, 2 results,
 * 4 messages, 5 time and tick last), so consecutive prompts share the longest prefix. Text that
 * came from outside (messages, command results, diary entries) is fenced as data with a
 * nonce that changes every tick, so the model can tell it from instructions and a command block
 * quoted from it can be recognised ({@link AssembledPrompt#dataShown()}).
 */
public final class ContextAssembler {
    static final int MAX_PROCESS_ROWS = 50;
    static final int MAX_MEMORY_ROWS = 50;
    static final int MAX_REPLY_CHARS = 4_000;
    private static final List<Integer> TRIM_ORDER = List.of(1, 3, 6, 2, 4, 5);
    /** The order contexts appear in the user message: slow-changing first, time and tick last. */
    static final List<Integer> PROMPT_ORDER = List.of(6, 3, 1, 2, 4, 5);
    /**
     * Contexts stored as one part per item rather than one part in all: context 1, a sliding window in which each
     * reply is shown K ticks running, so each is stored once. The others change as a whole (the data-fence
     * nonce) or not at all (the notebook), where one part per tick is cheapest.
     */
    static final Set<Integer> ITEM_PARTS = Set.of(1);

    private final ContextSettings settings;
    private final String catalog;
    private final String llmDescription;
    private final NotesDao notes;
    private final ProcessLogDao processLog;
    private final ResponsesDao responses;
    private final MemoryDao memory;
    private final DiaryDao diary;
    private final ConceptsDao concepts;
    private final SettingsDao runtimeSettings;
    private final Supplier<String> nonces;

    /** @param nonces a new unguessable data-fence nonce per call (one per tick) */
    public ContextAssembler(ContextSettings settings, String catalog, String llmDescription, NotesDao notes,
                            ProcessLogDao processLog, ResponsesDao responses, MemoryDao memory, DiaryDao diary,
                            ConceptsDao concepts, SettingsDao runtimeSettings, Supplier<String> nonces) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.llmDescription = Objects.requireNonNull(llmDescription, "llmDescription");
        this.notes = Objects.requireNonNull(notes, "notes");
        this.processLog = Objects.requireNonNull(processLog, "processLog");
        this.responses = Objects.requireNonNull(responses, "responses");
        this.memory = Objects.requireNonNull(memory, "memory");
        this.diary = Objects.requireNonNull(diary, "diary");
        this.concepts = Objects.requireNonNull(concepts, "concepts");
        this.runtimeSettings = Objects.requireNonNull(runtimeSettings, "runtimeSettings");
        this.nonces = Objects.requireNonNull(nonces, "nonces");
    }

    /** Random 64-bit nonces from a {@link SecureRandom}, as 16 hex digits. */
    public static Supplier<String> secureNonces() {
        SecureRandom random = new SecureRandom();
        return () -> HexFormat.of().toHexDigits(random.nextLong());
    }

    public AssembledPrompt assemble(long tickId, Instant now) {
        String system = SystemPrompt.render(settings.agentName(), catalog);
        DataFence fence = new DataFence(nonces.get());
        Map<Integer, Section> sections = new HashMap<>();
        sections.put(1, recentReplies());
        sections.put(2, processes(fence));
        sections.put(3, diaryEntries(fence));
        sections.put(4, incoming(fence));
        sections.put(5, cycleSettings(tickId, now));
        sections.put(6, notebook());
        int systemTokens = TokenEstimator.estimate(List.of(Message.system(system)));
        List<AssembledPrompt.Part> userParts = render(sections);
        String user = joined(userParts);
        int budget = Math.max(0, settings.promptBudgetTokens() - systemTokens);
        for (int index : TRIM_ORDER) {
            Section s = sections.get(index);
            while (TokenEstimator.estimate(user) > budget && s.dropOne()) {
                userParts = render(sections);
                user = joined(userParts);
            }
        }
        Map<Integer, Integer> trimmed = new HashMap<>();
        sections.values().stream().filter(s -> s.dropped > 0).forEach(s -> trimmed.put(s.index, s.dropped));
        List<Message> messages = List.of(Message.system(system), Message.user(user));
        List<Long> noteIds = sections.get(4).rowIds();
        // manual mode: the header counts every unread note, so all of them count as presented
        long watermark = settings.manualNotes() ? notes.maxUnreadId(NoteFilter.ALL)
                : noteIds.stream().mapToLong(Long::longValue).max().orElse(0);
        List<AssembledPrompt.Part> parts = new ArrayList<>();
        parts.add(new AssembledPrompt.Part(0, 0, system));
        parts.addAll(userParts);
        return new AssembledPrompt(messages, parts, settings.manualNotes() ? List.of() : noteIds, watermark,
                sections.get(2).rowIds(), TokenEstimator.estimate(messages), trimmed,
                PROMPT_ORDER.stream().flatMap(i -> sections.get(i).dataShown().stream()).toList());
    }

    /**
     * The user message (message 1) in parts, contexts in {@link #PROMPT_ORDER}, sections apart by a blank line:
     * each section one part (one per item for {@link #ITEM_PARTS}), the whole stripped of leading and trailing
     * white space. Joined, the parts are the message. The blank line between two sections opens the later one,
     * so an item's part is the same text wherever in its section it stands.
     */
    private static List<AssembledPrompt.Part> render(Map<Integer, Section> sections) {
        List<Integer> contexts = new ArrayList<>();
        List<String> pieces = new ArrayList<>();
        for (int index : PROMPT_ORDER) {
            Section s = sections.get(index);
            List<String> own = ITEM_PARTS.contains(index) ? new ArrayList<>(s.pieces()) : new ArrayList<>(List.of(s.render()));
            if (!pieces.isEmpty()) own.set(0, "\n" + own.get(0));
            own.forEach(piece -> {
                contexts.add(index);
                pieces.add(piece);
            });
        }
        List<String> stripped = strip(pieces);
        List<AssembledPrompt.Part> parts = new ArrayList<>();
        for (int i = 0; i < stripped.size(); i++) parts.add(new AssembledPrompt.Part(1, contexts.get(i), stripped.get(i)));
        return parts;
    }

    private static String joined(List<AssembledPrompt.Part> parts) {
        StringBuilder sb = new StringBuilder();
        parts.forEach(p -> sb.append(p.text()));
        return sb.toString();
    }

    /** The pieces of {@code String.join("", pieces).strip()}: white space cut from the ends of the joined text. */
    static List<String> strip(List<String> pieces) {
        List<String> out = new ArrayList<>(pieces);
        for (int i = 0; i < out.size(); i++) {
            out.set(i, out.get(i).stripLeading());
            if (!out.get(i).isEmpty()) break;
        }
        for (int i = out.size() - 1; i >= 0; i--) {
            out.set(i, out.get(i).stripTrailing());
            if (!out.get(i).isEmpty()) break;
        }
        return out;
    }

    private Section recentReplies() {
        Section s = new Section(1, "your last replies (oldest first)", "(none yet: this is your first thought)", true, 0);
        for (ResponseRow r : responses.latest(settings.historyK())) {
            String novelty = r.noveltyScore() == null ? "" : String.format(Locale.ROOT, ", novelty %.2f", r.noveltyScore());
            String flags = (r.interrupted() ? ", cut short before it was complete" : "") + (r.stagnation() ? ", anti-stagnation" : "");
            String reflection = r.reflection() == null || r.reflection().isBlank() ? "" : "\nreflection: " + r.reflection();
            s.add("[tick " + r.tickId() + novelty + flags + "]" + reflection + "\n" + clip(r.content(), MAX_REPLY_CHARS), 0);
        }
        return s;
    }

    private Section processes(DataFence fence) {
        Section s = new Section(2, "your commands and processes not yet closed (oldest first; new results last)",
                "(none)", true, 1);
        for (ProcessRow p : processLog.forContext(MAX_PROCESS_ROWS)) {
            String pain = p.painLevel() > 0 ? String.format(Locale.ROOT, ", pain %.1f", p.painLevel()) : "";
            s.add("[id " + p.id() + ", cmd " + nz(p.cmdId()) + ", " + p.name() + ", tick " + p.tickId() + "] "
                    + p.status() + pain + ": ", fence.wrap("result " + p.id(), clip(nz(p.result()), 1_000)), p.id());
        }
        return s;
    }

    private Section diaryEntries(DataFence fence) {
        Section s = new Section(3, "diary entries and concepts you asked for (diary_read)", "(none requested)", false, 0);
        String query = runtimeSettings.get(ContextKeys.DIARY_QUERY).orElse(null);
        if (query == null) return s;
        int limit = runtimeSettings.get(ContextKeys.DIARY_LIMIT).map(Integer::parseInt).orElse(5);
        for (DiaryRow d : diary.search(query, limit)) {
            s.add("[diary " + d.id() + ", " + d.timestamp() + (d.tags() == null ? "" : ", tags " + d.tags()) + "] ",
                    fence.wrap("diary " + d.id(), clip(d.text(), 2_000)), 0);
        }
        for (ConceptRow c : concepts.search(query, limit)) {
            s.add("[concept " + c.id() + "] " + c.name() + (c.description().isEmpty() ? "" : ": " + clip(c.description(), 500))
                    + (c.links().isEmpty() ? "" : "; links: " + String.join("; ", c.links())), 0);
        }
        return s;
    }

    private Section incoming(DataFence fence) {
        if (settings.manualNotes()) return incomingManual();
        Section s = new Section(4, "incoming messages", "(no unread messages)", false, 1);
        for (NoteRow n : notes.unread(settings.autoFilter(), settings.notesLimit())) {
            s.add("[note " + n.id() + " from " + n.source() + ", priority " + n.priority() + ", " + n.timestamp() + "] ",
                    fence.wrap("note " + n.id(), clip(n.text(), 4_000)), n.id());
        }
        return s;
    }

    /** Manual mode: counts by priority and the ids (a header item and one item per note; the header is never trimmed). */
    private Section incomingManual() {
        Section s = new Section(4, "incoming messages", "(no unread messages)", false, 2);
        long total = notes.unreadCount();
        if (total == 0) return s;
        StringBuilder counts = new StringBuilder();
        notes.unreadCountsByPriority().forEach((p, n) -> counts.append(counts.length() == 0 ? "" : ", ")
                .append("priority ").append(p).append(": ").append(n));
        s.add(total + " unread (" + counts + "). Read one with note_read. Ids:", 0);
        for (NoteRow n : notes.unread(NoteFilter.ALL, settings.notesLimit())) {
            s.add("- " + n.id() + " (priority " + n.priority() + ", from " + n.source() + ", " + n.timestamp() + ")", n.id());
        }
        return s;
    }

    private Section cycleSettings(long tickId, Instant now) {
        return new Section(5, "settings", "", true, 0).add("tick " + tickId + "; time " + now + "; notes mode "
                + (settings.manualNotes() ? "manual" : "auto") + "; history " + settings.historyK() + " replies; "
                + "autonomous thinking " + (settings.autonomous() ? "on" : "off") + "; model " + llmDescription, 0);
    }

    private Section notebook() {
        Section s = new Section(6, "your notebook (llm_memory, newest first)", "(empty: add with memory_add)", false, 0);
        for (MemoryRow m : memory.latest(MAX_MEMORY_ROWS)) {
            s.add("[memory " + m.id() + (m.tags() == null ? "" : ", tags " + m.tags()) + "] "
                    + (m.title() == null ? "" : m.title() + ": ") + clip(m.content(), 2_000), 0);
        }
        return s;
    }

    private static String nz(String s) { return s == null ? "" : s; }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "… (" + (s.length() - max) + " more chars)";
    }
}
