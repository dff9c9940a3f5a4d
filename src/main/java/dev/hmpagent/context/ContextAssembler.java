package dev.hmpagent.context;

import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.store.ConceptRow;
import dev.hmpagent.store.ConceptsDao;
import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.DiaryRow;
import dev.hmpagent.store.GoalsDao;
import dev.hmpagent.store.MemoryDao;
import dev.hmpagent.store.MemoryRow;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.NoteRow;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Pinned;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.ReflexDao;
import dev.hmpagent.store.ResponseRow;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.SettingsDao;
import dev.hmpagent.store.WorkItem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
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
 * message is ordered stable-first (6 goals, tasks and notebook, 3 pinned and requested entries, 1 replies,
 * 2 results, 4 messages, 5 time and tick last), so consecutive prompts share the longest prefix: context 0 and the
 * leading contexts 6 and 3 are byte-identical from tick to tick while their content does not change, and the user
 * message's {@link Message#stablePrefix()} says where they end; context 1 grows by the new reply and lets its oldest
 * go together, at a tick whose prompt changed ahead of it when it can ({@link ReplyWindow}: this assembler remembers
 * the previous prompt for that), so on most ticks the prompt is unchanged up to the reply before, and the message's
 * {@link Message#seams()} mark where each reply ends. Text
 * that came from outside (messages, command results, diary entries) is fenced as data ({@link DataFence}) with a
 * secret random nonce that stays the same for the run until some text shows it, so the model can tell it from
 * instructions and a command block quoted from it can be recognised ({@link AssembledPrompt#dataShown()}).
 *
 * <p>Medium-term memory: pinned diary entries and concepts appear in context 3 every tick until unpinned, at
 * most {@code pinCap} of them (the most recently pinned; a line says how many older pins were left out);
 * pinned goals and tasks come first in context 6, then the unfinished ones by priority. Context 4 shows at
 * most {@code perSourceCap} notes from any one source per tick, a person's own (source user) first; the rest
 * stay unread and wake the LLM again.
 *
 * <p>The settings may change every tick ({@link LiveSettings}): pass the tick's snapshot to
 * {@link #assemble(long, Instant, LiveSettings.Snapshot)}.
 */
public final class ContextAssembler {
    static final int MAX_PROCESS_ROWS = 50;
    static final int MAX_MEMORY_ROWS = 50;
    static final int MAX_GOAL_ROWS = 20;
    static final int MAX_REPLY_CHARS = 4_000;
    static final int MAX_HASHTAGS_COUNTED = 10;
    /** Pinned diary entries and concepts shown when no cap is given. */
    public static final int DEFAULT_PIN_CAP = 10;
    /** Notes from one source shown per tick when no cap is given. */
    public static final int DEFAULT_PER_SOURCE_CAP = 10;
    private static final List<Integer> TRIM_ORDER = List.of(1, 3, 6, 2, 4, 5);
    /** The order contexts appear in the user message: slow-changing first, time and tick last. */
    static final List<Integer> PROMPT_ORDER = List.of(6, 3, 1, 2, 4, 5);
    /**
     * Contexts stored as one part per item rather than one part in all: context 1, a window of replies in which each
     * is shown several ticks running ({@link ReplyWindow}), so each is stored once. The others are one part each: a
     * context that did not change is the same part as at the tick before, stored once.
     */
    static final Set<Integer> ITEM_PARTS = Set.of(1);
    /**
     * The contexts at the start of the user message that change only when their content does (not with the tick):
     * the user message's {@link Message#stablePrefix()} ends where they end, so a provider with explicit cache
     * breakpoints can put one there.
     */
    static final Set<Integer> STABLE_CONTEXTS = Set.of(6, 3);
    /** What precedes the LLM's name in context 5. */
    private static final String MODEL_LABEL = "; model ";
    /** Nonces drawn for one prompt before giving up: a random one is in the prompt's text by chance almost never. */
    private static final int MAX_NONCE_DRAWS = 8;

    private final ContextSettings settings;
    private final String catalog;
    /** The agent's own scripts and tables, listed in context 0 after the command catalogue ("" when none). */
    private volatile java.util.function.Supplier<String> agentCatalogue = () -> "";
    /** The LLM thinking now ("model at endpoint"): it follows a switch (/model, the reflex's switch LLM). */
    private final Supplier<String> llmDescription;
    private final NotesDao notes;
    private final ProcessLogDao processLog;
    private final ResponsesDao responses;
    private final MemoryDao memory;
    private final DiaryDao diary;
    private final ConceptsDao concepts;
    /** Null only through the deprecated constructor: goals and tasks are then not shown. */
    private final GoalsDao goals;
    private final SettingsDao runtimeSettings;
    private final int pinCap;
    private final int perSourceCap;
    private final Supplier<String> nonces;
    /** The data-fence nonce of this run (null before the first prompt); only the tick thread assembles. */
    private String nonce;
    /** What the previous prompt showed ahead of context 1 (context 0, 6 and 3), null before the first. */
    private String aheadBefore;
    /** The id of the oldest reply the previous prompt's context 1 showed (0: none). */
    private long firstReplyBefore;

    /**
     * @param settings     agent.toml's settings, used by {@link #assemble(long, Instant)}
     * @param pinCap       most pinned diary entries and concepts context 3 shows
     * @param perSourceCap most notes context 4 shows from one source in one tick
     * @param nonces       a new unguessable data-fence nonce per call: asked at the first prompt, and again only when
     *                     the prompt would show the nonce in use outside its fence lines
     */
    public ContextAssembler(ContextSettings settings, String catalog, Supplier<String> llmDescription,
                            ContextSources sources, int pinCap, int perSourceCap, Supplier<String> nonces) {
        this(settings, catalog, llmDescription, sources.notes(), sources.processLog(), sources.responses(),
                sources.memory(), sources.diary(), sources.concepts(), Objects.requireNonNull(sources.goals(), "goals"),
                sources.settings(), pinCap, perSourceCap, nonces);
    }

    /**
     * The constructor before pins, goals and per-source caps: default caps, and goals and tasks are not shown.
     *
     * @deprecated use {@link #ContextAssembler(ContextSettings, String, Supplier, ContextSources, int, int, Supplier)}
     * @param nonces a new unguessable data-fence nonce per call (see the other constructor)
     */
    @Deprecated
    public ContextAssembler(ContextSettings settings, String catalog, String llmDescription, NotesDao notes,
                            ProcessLogDao processLog, ResponsesDao responses, MemoryDao memory, DiaryDao diary,
                            ConceptsDao concepts, SettingsDao runtimeSettings, Supplier<String> nonces) {
        this(settings, catalog, () -> llmDescription, notes, processLog, responses, memory, diary, concepts, null,
                runtimeSettings, DEFAULT_PIN_CAP, DEFAULT_PER_SOURCE_CAP, nonces);
    }

    private ContextAssembler(ContextSettings settings, String catalog, Supplier<String> llmDescription, NotesDao notes,
                             ProcessLogDao processLog, ResponsesDao responses, MemoryDao memory, DiaryDao diary,
                             ConceptsDao concepts, GoalsDao goals, SettingsDao runtimeSettings, int pinCap,
                             int perSourceCap, Supplier<String> nonces) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.llmDescription = Objects.requireNonNull(llmDescription, "llmDescription");
        this.notes = Objects.requireNonNull(notes, "notes");
        this.processLog = Objects.requireNonNull(processLog, "processLog");
        this.responses = Objects.requireNonNull(responses, "responses");
        this.memory = Objects.requireNonNull(memory, "memory");
        this.diary = Objects.requireNonNull(diary, "diary");
        this.concepts = Objects.requireNonNull(concepts, "concepts");
        this.goals = goals;
        this.runtimeSettings = Objects.requireNonNull(runtimeSettings, "runtimeSettings");
        if (pinCap < 0) throw new IllegalArgumentException("pinCap < 0: " + pinCap);
        if (perSourceCap < 1) throw new IllegalArgumentException("perSourceCap < 1: " + perSourceCap);
        this.pinCap = pinCap;
        this.perSourceCap = perSourceCap;
        this.nonces = Objects.requireNonNull(nonces, "nonces");
    }

    /** How the prompt names an LLM ("model at endpoint"): what {@code llmDescription} gives. */
    public static String describeLlm(String model, String endpoint) {
        return model + " at " + endpoint;
    }

    /**
     * {@code messages} as if assembled while {@code now} was thinking rather than {@code was} (both as
     * {@link #describeLlm}): context 5, at the end of the last message, names the model. For a request that another LLM
     * answers than the one it was assembled for (a failover); nothing else in the prompt names the model.
     */
    public static List<Message> retargeted(List<Message> messages, String was, String now) {
        Message last = messages.get(messages.size() - 1);
        String content = last.content();
        int at = content.lastIndexOf(MODEL_LABEL + was);
        if (at < 0 || was.equals(now)) return messages;
        List<Message> out = new ArrayList<>(messages);
        String renamed = content.substring(0, at) + MODEL_LABEL + now + content.substring(at + MODEL_LABEL.length() + was.length());
        // the hints end before context 5, at the end
        List<Integer> seams = last.seams().stream().filter(seam -> seam <= at).toList();
        out.set(out.size() - 1, new Message(last.role(), renamed, Math.min(last.stablePrefix(), at), seams));
        return out;
    }

    /** Random 64-bit nonces from a {@link SecureRandom}, as 16 hex digits. */
    public static Supplier<String> secureNonces() {
        SecureRandom random = new SecureRandom();
        return () -> HexFormat.of().toHexDigits(random.nextLong());
    }

    /** Lists the agent's own scripts and tables in context 0 (read every tick; they change rarely, so the prefix stays stable). */
    public void listAgentCatalogue(java.util.function.Supplier<String> lines) {
        this.agentCatalogue = Objects.requireNonNull(lines, "lines");
    }

    /** The prompt with agent.toml's settings (those given to the constructor). */
    public AssembledPrompt assemble(long tickId, Instant now) {
        return assemble(tickId, now, LiveSettings.Snapshot.of(settings));
    }

    /** The prompt with {@code settings} in force for this tick. */
    public AssembledPrompt assemble(long tickId, Instant now, ContextSettings settings) {
        return assemble(tickId, now, LiveSettings.Snapshot.of(settings));
    }

    /**
     * The prompt with the tick's settings; context 5 says which of them the LLM set, and at which tick. The data
     * fence keeps the run's nonce unless the prompt would show it outside a fence line (some text holds it): then it
     * draws a new one and renders again.
     */
    public AssembledPrompt assemble(long tickId, Instant now, LiveSettings.Snapshot snapshot) {
        if (nonce == null) nonce = nonces.get();
        for (int draws = 1; ; draws++) {
            DataFence fence = new DataFence(nonce);
            Assembled assembled = assemble(tickId, now, snapshot, fence);
            AssembledPrompt prompt = assembled.prompt();
            String all = prompt.messages().get(0).content() + "\n" + prompt.messages().get(1).content();
            if (fence.onlyInFences(all, prompt.dataShown().size())) {
                aheadBefore = assembled.ahead();
                firstReplyBefore = assembled.firstReply();
                return prompt;
            }
            if (draws == MAX_NONCE_DRAWS) {
                throw new IllegalStateException("the prompt shows each of " + draws + " data-fence nonces outside its fences");
            }
            nonce = nonces.get();
        }
    }

    /** A prompt, what it shows ahead of context 1, and the id of the oldest reply its context 1 shows (0: none). */
    private record Assembled(AssembledPrompt prompt, String ahead, long firstReply) { }

    private Assembled assemble(long tickId, Instant now, LiveSettings.Snapshot snapshot, DataFence fence) {
        ContextSettings settings = snapshot.settings();
        String system = SystemPrompt.render(settings.agentName(), catalog + agentCatalogue.get());
        Map<Integer, Section> sections = new HashMap<>();
        sections.put(6, notebook());
        sections.put(3, diaryEntries(fence, reflexItems(snapshot, 3)));
        // context 1's own title names K: a new K changes the prompt there, so the window may drop then too
        String ahead = system + "\u0000" + settings.historyK() + "\u0000" + sections.get(6).render() + sections.get(3).render();
        List<ResponseRow> replies = replyWindow(settings.historyK(), !ahead.equals(aheadBefore));
        int replyWindowExtra = Math.max(0, replies.size() - settings.historyK());
        sections.put(1, recentReplies(settings, replies, reflexItems(snapshot, 1)));
        sections.put(2, processes(fence));
        sections.put(4, incoming(settings, fence));
        sections.put(5, cycleSettings(tickId, now, snapshot));
        int systemTokens = TokenEstimator.estimate(List.of(Message.system(system)));
        List<AssembledPrompt.Part> userParts = render(sections);
        String user = joined(userParts);
        int budget = Math.max(0, settings.promptBudgetTokens() - systemTokens);
        if (TokenEstimator.estimate(user) > budget && replyWindowExtra > 0) {
            // the window falls back to its last K replies before any of those is left out: the oldest leave together
            sections.get(1).leave(replyWindowExtra);
            userParts = render(sections);
            user = joined(userParts);
        }
        for (int index : TRIM_ORDER) {
            Section s = sections.get(index);
            while (TokenEstimator.estimate(user) > budget && s.dropOne()) {
                userParts = render(sections);
                user = joined(userParts);
            }
        }
        Map<Integer, Integer> trimmed = new HashMap<>();
        sections.values().stream().filter(s -> s.dropped > 0).forEach(s -> trimmed.put(s.index, s.dropped));
        List<Message> messages = List.of(Message.system(system), Message.user(user).withStablePrefix(stablePrefix(userParts))
                .withSeams(replySeams(userParts, (int) sections.get(1).rowIds().size())));
        List<Long> noteIds = sections.get(4).rowIds();
        // manual mode: the header counts every unread note, so all of them count as presented
        long watermark = settings.manualNotes() ? notes.maxUnreadId(NoteFilter.ALL) : watermark(settings, noteIds);
        List<AssembledPrompt.Part> parts = new ArrayList<>();
        parts.add(new AssembledPrompt.Part(0, 0, system));
        parts.addAll(userParts);
        AssembledPrompt prompt = new AssembledPrompt(messages, parts, settings.manualNotes() ? List.of() : noteIds,
                watermark, sections.get(2).rowIds(), TokenEstimator.estimate(messages), trimmed,
                PROMPT_ORDER.stream().flatMap(i -> sections.get(i).dataShown().stream()).toList());
        return new Assembled(prompt, ahead, sections.get(1).rowIds().stream().findFirst().orElse(0L));
    }

    /** The characters of the user message's leading {@link #STABLE_CONTEXTS}: up to where context 1 begins. */
    private static int stablePrefix(List<AssembledPrompt.Part> userParts) {
        int chars = 0;
        for (AssembledPrompt.Part p : userParts) {
            if (!STABLE_CONTEXTS.contains(p.context())) break;
            chars += p.text().length();
        }
        return chars;
    }

    /**
     * Where each of context 1's {@code replies} replies ends in the user message (its first parts after the header):
     * the next tick repeats them and appends its reply, so a breakpoint at the last one is found on a block boundary.
     */
    private static List<Integer> replySeams(List<AssembledPrompt.Part> userParts, int replies) {
        List<Integer> seams = new ArrayList<>();
        int chars = 0;
        int item = -1;   // the header is context 1's part 0
        for (AssembledPrompt.Part p : userParts) {
            chars += p.text().length();
            if (p.context() != 1) continue;
            item++;
            if (item >= 1 && item <= replies) seams.add(chars);
        }
        return seams;
    }

    /**
     * Auto mode: the highest note id up to which every note the filter lets through was shown. A note held back
     * (by the per-source cap, the limit or the budget) lies above it, so it still counts as new and is shown at
     * a later tick, even when notes with higher ids were shown now.
     */
    private long watermark(ContextSettings settings, List<Long> shown) {
        long firstHeldBack = notes.minUnreadIdExcept(settings.autoFilter(), shown);
        long maxShown = shown.stream().mapToLong(Long::longValue).max().orElse(0);
        return firstHeldBack == 0 ? maxShown : Math.min(maxShown, firstHeldBack - 1);
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

    /** The reflex's items for context {@code context}, oldest first. */
    private static List<ReflexDao.Item> reflexItems(LiveSettings.Snapshot snapshot, int context) {
        return snapshot.reflexItems().stream().filter(i -> i.context() == context).toList();
    }

    /**
     * The replies context 1 shows ({@link ReplyWindow}: at least K, the oldest leaving together, at a tick whose prompt
     * changed ahead of context 1 when they can), oldest first.
     */
    private List<ResponseRow> replyWindow(int k, boolean aheadChanged) {
        List<ResponseRow> latest = responses.latest(ReplyWindow.most(k));
        int shown = ReplyWindow.shown(k, latest.stream().map(ResponseRow::id).toList(), firstReplyBefore, aheadChanged);
        return latest.subList(latest.size() - shown, latest.size());
    }

    /** The replies of the window with their reflections, then what the anti-stagnation reflex asks of the LLM now. */
    private Section recentReplies(ContextSettings settings, List<ResponseRow> replies, List<ReflexDao.Item> reflex) {
        int k = settings.historyK();
        String title = "your last replies (oldest first" + (ReplyWindow.most(k) == k ? ")" : ", " + ReplyWindow.describe(k) + ")");
        Section s = new Section(1, title, "(none yet: this is your first thought)", true, 0);
        for (ResponseRow r : replies) {
            String novelty = r.noveltyScore() == null ? "" : String.format(Locale.ROOT, ", novelty %.2f", r.noveltyScore());
            String flags = (r.interrupted() ? ", cut short before it was complete" : "") + (r.stagnation() ? ", anti-stagnation" : "");
            String reflection = r.reflection() == null || r.reflection().isBlank() ? "" : "\nreflection: " + r.reflection();
            s.add("[tick " + r.tickId() + novelty + flags + "]" + reflection + "\n" + clip(r.content(), MAX_REPLY_CHARS), r.id());
        }
        for (ReflexDao.Item i : reflex) {
            s.add("[anti-stagnation reflex, " + i.strategy() + ", since tick " + i.tickId() + "] " + i.text(), 0);
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

    /** Pinned diary entries and concepts (oldest pin first, at most {@link #pinCap}), then those diary_read asked for. */
    private Section diaryEntries(DataFence fence, List<ReflexDao.Item> reflex) {
        Section s = new Section(3, "pinned diary entries and concepts, and those you asked for (diary_read)",
                "(none pinned or requested)", false, 0);
        for (ReflexDao.Item i : reflex) {
            s.add("[anti-stagnation reflex, " + i.strategy() + ", since tick " + i.tickId() + "] ",
                    fence.wrap("reflex " + i.id(), i.text()), 0);
        }
        record Pin(long tick, int kind, long id, DiaryRow entry, ConceptRow concept) { }
        List<Pin> pins = new ArrayList<>();
        diary.pinned(pinCap).forEach(p -> pins.add(new Pin(p.tick(), 0, p.row().id(), p.row(), null)));
        concepts.pinned(pinCap).forEach(p -> pins.add(new Pin(p.tick(), 1, p.row().id(), null, p.row())));
        pins.sort(Comparator.comparingLong(Pin::tick).thenComparingInt(Pin::kind).thenComparingLong(Pin::id));
        List<Pin> shown = pins.subList(Math.max(0, pins.size() - pinCap), pins.size());
        long leftOut = diary.pinnedCount() + concepts.pinnedCount() - shown.size();
        if (leftOut > 0) {
            s.add("(" + leftOut + " older pin" + (leftOut == 1 ? "" : "s") + " left out: at most " + pinCap
                    + " pinned entries and concepts show; unpin what you no longer need)", 0);
        }
        Set<Long> shownDiary = new HashSet<>();
        Set<Long> shownConcepts = new HashSet<>();
        for (Pin p : shown) {
            if (p.entry() != null) {
                shownDiary.add(p.id());
                s.add(diaryItem(p.entry(), ", pinned at tick " + p.tick()), fence.wrap("diary " + p.id(), clip(p.entry().text(), 2_000)), 0);
            } else {
                shownConcepts.add(p.id());
                s.add(conceptItem(p.concept(), ", pinned at tick " + p.tick()), 0);
            }
        }
        String query = runtimeSettings.get(ContextKeys.DIARY_QUERY).orElse(null);
        if (query == null) return s;
        int limit = runtimeSettings.get(ContextKeys.DIARY_LIMIT).map(Integer::parseInt).orElse(5);
        for (DiaryRow d : diary.search(query, limit)) {
            if (!shownDiary.contains(d.id())) s.add(diaryItem(d, ""), fence.wrap("diary " + d.id(), clip(d.text(), 2_000)), 0);
        }
        for (ConceptRow c : concepts.search(query, limit)) {
            if (!shownConcepts.contains(c.id())) s.add(conceptItem(c, ""), 0);
        }
        return s;
    }

    private static String diaryItem(DiaryRow d, String pin) {
        return "[diary " + d.id() + ", " + d.timestamp() + (d.tags() == null ? "" : ", tags " + d.tags()) + pin + "] ";
    }

    private static String conceptItem(ConceptRow c, String pin) {
        return "[concept " + c.id() + pin + "] " + c.name() + (c.description().isEmpty() ? "" : ": " + clip(c.description(), 500))
                + (c.links().isEmpty() ? "" : "; links: " + String.join("; ", c.links()));
    }

    private Section incoming(ContextSettings settings, DataFence fence) {
        if (settings.manualNotes()) return incomingManual(settings);
        Section s = new Section(4, "incoming messages (a person's first)", "(no unread messages)", false, 1);
        List<NoteRow> shown = notes.unreadCapped(settings.autoFilter(), perSourceCap, settings.notesLimit());
        for (NoteRow n : shown) {
            s.add("[note " + n.id() + " from " + n.source() + ", priority " + n.priority() + ", " + n.timestamp()
                    + hashtags(n) + "] ", fence.wrap("note " + n.id(), clip(n.text(), 4_000)), n.id());
        }
        long waiting = notes.unreadCount(settings.autoFilter()) - shown.size();
        if (waiting > 0) {
            s.add("(" + waiting + " more unread wait for later ticks: at most " + perSourceCap + " from one source and "
                    + settings.notesLimit() + " in all each tick)", 0);
        }
        return s;
    }

    private static String hashtags(NoteRow n) {
        return n.hashtags().isEmpty() ? "" : ", #" + String.join(" #", n.hashtags());
    }

    /**
     * Manual mode: counts by priority, source and hashtag, and the ids (a person's first, at most
     * {@link #perSourceCap} per source); a header item and one item per note; the header is never trimmed.
     */
    private Section incomingManual(ContextSettings settings) {
        Section s = new Section(4, "incoming messages", "(no unread messages)", false, 2);
        long total = notes.unreadCount();
        if (total == 0) return s;
        StringBuilder counts = new StringBuilder();
        notes.unreadCountsByPriority().forEach((p, n) -> counts.append(counts.length() == 0 ? "" : ", ")
                .append("priority ").append(p).append(": ").append(n));
        StringBuilder sources = new StringBuilder();
        notes.unreadCountsBySource().forEach((source, n) -> sources.append(sources.length() == 0 ? "" : ", ")
                .append(source).append(": ").append(n));
        StringBuilder tags = new StringBuilder();
        notes.unreadCountsByHashtag(MAX_HASHTAGS_COUNTED).forEach((tag, n) -> tags.append(tags.length() == 0 ? "" : ", ")
                .append('#').append(tag).append(": ").append(n));
        s.add(total + " unread (" + counts + "). By source: " + sources + "."
                + (tags.length() == 0 ? "" : " By hashtag: " + tags + ".") + " Read one with note_read. Ids:", 0);
        for (NoteRow n : notes.unreadCapped(NoteFilter.ALL, perSourceCap, settings.notesLimit())) {
            s.add("- " + n.id() + " (priority " + n.priority() + ", from " + n.source() + ", " + n.timestamp()
                    + hashtags(n) + ")", n.id());
        }
        return s;
    }

    private Section cycleSettings(long tickId, Instant now, LiveSettings.Snapshot snapshot) {
        ContextSettings settings = snapshot.settings();
        Map<String, Long> setAt = snapshot.setByLlmAtTick();
        String notesMode = settings.manualNotes() ? "manual" : "auto (filter: " + settings.autoFilter().describe() + ")";
        String line = "tick " + tickId + "; time " + now + "; notes mode " + notesMode
                + byYou(setAt, ContextKeys.NOTES_MODE, ContextKeys.NOTES_FILTER) + "; history " + settings.historyK()
                + " replies" + byYou(setAt, ContextKeys.HISTORY_K) + "; autonomous thinking "
                + (settings.autonomous() ? "on" : "off") + MODEL_LABEL + llmDescription.get();
        if (!snapshot.problems().isEmpty()) line += "\nsettings you stored that do not apply as stored: "
                + String.join("; ", snapshot.problems());
        return new Section(5, "settings", "", true, 0).add(line, 0);
    }

    /** " (set by you at tick N)" for the latest of {@code keys} the LLM set, else "". */
    private static String byYou(Map<String, Long> setAt, String... keys) {
        long tick = java.util.Arrays.stream(keys).filter(setAt::containsKey).mapToLong(setAt::get).max().orElse(-1);
        return tick < 0 ? "" : " (set by you at tick " + tick + ")";
    }

    /** Goals and tasks (pinned first, then unfinished ones by priority), then the notebook entries. */
    private Section notebook() {
        Section s = new Section(6, "your goals and tasks (pinned first) and your notebook (llm_memory, newest first)",
                "(empty: add with memory_add or goal_add)", false, 0);
        if (goals != null) {
            for (WorkItem.Kind kind : WorkItem.Kind.values()) {
                for (WorkItem w : goals.forContext(kind, MAX_GOAL_ROWS)) s.add(workItem(w), 0);
            }
        }
        for (MemoryRow m : memory.latest(MAX_MEMORY_ROWS)) {
            s.add("[memory " + m.id() + (m.tags() == null ? "" : ", tags " + m.tags()) + "] "
                    + (m.title() == null ? "" : m.title() + ": ") + clip(m.content(), 2_000), 0);
        }
        return s;
    }

    private static String workItem(WorkItem w) {
        return "[" + w.kind().word() + " " + w.id() + (w.goalId() == 0 ? "" : " of goal " + w.goalId())
                + (w.pinned() ? ", pinned" : "") + ", " + w.status() + ", priority " + w.priority() + "] " + w.title()
                + (w.description().isEmpty() ? "" : ": " + clip(w.description(), 500));
    }

    private static String nz(String s) { return s == null ? "" : s; }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "… (" + (s.length() - max) + " more chars)";
    }
}
