package dev.hmpagent.context;

import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.llm.ReplySchema;
import dev.hmpagent.llm.ToolOffer;
import dev.hmpagent.llm.ToolSpec;
import dev.hmpagent.store.ConceptsDao;
import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.GoalsDao;
import dev.hmpagent.store.MemoryDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ReflexDao;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.SettingsDao;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Builds the prompt of one tick: context 0 as the system message, contexts 1-6 as one user
 * message fitted to the prompt budget ({@link UserMessage}: context 1 trimmed first, then 3, 6, 2, 4, 5). The user
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
 *
 * <p>Each context has its renderer: {@link SystemPrompt} (0), {@link RepliesContext} (1), {@link ProcessesContext}
 * (2), {@link PinnedContext} (3), {@link IncomingContext} (4), {@link SettingsContext} (5), {@link NotebookContext}
 * (6); this class draws the nonce, keeps what the reply window needs from the prompt before, and puts them together.
 */
public final class ContextAssembler {
    /** Pinned diary entries and concepts shown when no cap is given. */
    public static final int DEFAULT_PIN_CAP = 10;
    /** Notes from one source shown per tick when no cap is given. */
    public static final int DEFAULT_PER_SOURCE_CAP = 10;
    /** Nonces drawn for one prompt before giving up: a random one is in the prompt's text by chance almost never. */
    private static final int MAX_NONCE_DRAWS = 8;

    private final ContextSettings settings;
    private final String catalog;
    /** The agent's own scripts and tables, listed in context 0 after the command catalogue ("" when none). */
    private volatile Supplier<String> agentCatalogue = () -> "";
    /** What context 0 says before the outside tools' list, "" when there is none. */
    private volatile String outsideIntro = "";
    /** The tools of outside servers (MCP), as their servers describe them: fenced as data in context 0. */
    private volatile Supplier<String> outsideTools = () -> "";
    /** The person's standing instructions (AGENTS.md) as context 0 shows them, "" when none; set once at start. */
    private volatile String instructions = "";
    /** The tools an LLM entry with {@code commands = "tools"} is offered; none when no entry takes tool calls. */
    private volatile List<ToolSpec> tools = List.of();
    /** What the tools cost of the prompt budget, estimated once: all of them, and the compact form's. */
    private volatile int toolTokens;
    private volatile int compactToolTokens;
    /** Whether context 0 lists the commands in their compact form ({@link CompactCommands}); asked at each prompt. */
    private volatile java.util.function.BooleanSupplier compact = () -> false;
    /** The reply schema an LLM entry with {@code commands = "json"} is asked to keep to; none when no entry takes it. */
    private volatile ReplySchema replySchema = ReplySchema.NONE;
    private final RepliesContext replies;
    private final ProcessesContext processes;
    private final PinnedContext pinned;
    private final IncomingContext incoming;
    private final SettingsContext cycleSettings;
    private final NotebookContext notebook;
    private final Supplier<String> nonces;
    /** The data-fence nonce of this run (null before the first prompt); only the tick thread assembles. */
    private String nonce;
    /** What the previous prompt showed ahead of context 1 (context 0, 6 and 3), null before the first. */
    private Ahead aheadBefore;
    /** Context 0 as last rendered, and what it was rendered from: it changes only when they do (tick thread only). */
    private SystemInputs systemFrom;
    private String systemBefore;
    /** The id of the oldest reply the previous prompt's context 1 showed (0: none). */
    private long firstReplyBefore;
    /** Where the person is told their message was cut ({@link #tellPersonWith}). */
    private volatile Consumer<String> personNotices = line -> { };
    /** The person's messages already said to be cut, so a retried call does not say it again (oldest leave first). */
    private final Set<Long> cutsTold = new LinkedHashSet<>();
    private static final int MAX_CUTS_REMEMBERED = 64;

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
        this.replies = new RepliesContext(responses);
        this.processes = new ProcessesContext(processLog);
        this.pinned = new PinnedContext(diary, concepts, runtimeSettings, pinCap);
        this.incoming = new IncomingContext(notes, perSourceCap);
        this.cycleSettings = new SettingsContext(llmDescription);
        this.notebook = new NotebookContext(goals, memory);
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
        int at = content.lastIndexOf(SettingsContext.MODEL_LABEL + was);
        if (at < 0 || was.equals(now)) return messages;
        List<Message> out = new ArrayList<>(messages);
        String renamed = content.substring(0, at) + SettingsContext.MODEL_LABEL + now + content.substring(at + SettingsContext.MODEL_LABEL.length() + was.length());
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
    public void listAgentCatalogue(Supplier<String> lines) {
        this.agentCatalogue = Objects.requireNonNull(lines, "lines");
    }

    /**
     * Lists the tools of outside servers (MCP) in context 0, after the command catalogue and the agent's own: {@code
     * intro} (ours) and then {@code lines} (read every tick; the servers' names and descriptions) fenced as data, so a
     * description is never read as an instruction. Nothing is shown while {@code lines} gives "".
     */
    public void listOutsideTools(String intro, Supplier<String> lines) {
        this.outsideIntro = Objects.requireNonNull(intro, "intro");
        this.outsideTools = Objects.requireNonNull(lines, "lines");
    }

    /**
     * Shows the person's standing instructions ({@code AGENTS.md}, read once at start) in context 0, after the role:
     * set before the first prompt, they stay the same for the run, so the prefix providers cache stays stable.
     */
    public void standingInstructions(StandingInstructions read) {
        this.instructions = read.render();
    }

    /**
     * Offers {@code offered} to the LLM entries that take commands as native tool calls: each prompt then carries
     * them with a context 0 of their own (no command-block contract). Set once a run, so they stay a stable prefix.
     */
    public void offerTools(List<ToolSpec> offered) {
        StringBuilder all = new StringBuilder();
        offered.forEach(t -> all.append(t.name()).append(t.description()).append(t.schema()));
        this.toolTokens = TokenEstimator.estimate(all.toString());
        StringBuilder core = new StringBuilder();
        CompactCommands.tools(offered).forEach(t -> core.append(t.name()).append(t.description()).append(t.schema()));
        this.compactToolTokens = TokenEstimator.estimate(core.toString());
        this.tools = List.copyOf(offered);
    }

    /**
     * Asks the LLM entries that take a JSON reply for one kept to {@code schema}: each prompt then carries it with a
     * context 0 of its own (the JSON reply in place of the command block). Set once a run, a stable prefix.
     */
    public void offerReplySchema(ReplySchema schema) {
        this.replySchema = Objects.requireNonNull(schema, "schema");
    }

    /**
     * Lists the commands in context 0 in their compact form (the core ones' signatures, the rest behind help; in tools
     * mode only their tools and "use") whenever {@code compact} says so: a small model's context window.
     */
    public void compactWhen(java.util.function.BooleanSupplier compact) {
        this.compact = Objects.requireNonNull(compact, "compact");
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
            if (fence.onlyInFences(prompt.messages().get(0).content(), prompt.messages().get(1).content(),
                    prompt.dataShown().size())) {
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
    private record Assembled(AssembledPrompt prompt, Ahead ahead, long firstReply) { }

    /** What a prompt shows ahead of context 1: context 0, K (context 1's title names it), contexts 6 and 3. */
    private record Ahead(String system, int historyK, String notes6, String pins3) { }

    /** What context 0 is rendered from: the catalogue in its compact form or not, the agent's own scripts and tables. */
    private record SystemInputs(String agentName, String instructions, boolean small, String own, String outside) { }

    private Assembled assemble(long tickId, Instant now, LiveSettings.Snapshot snapshot, DataFence fence) {
        ContextSettings settings = snapshot.settings();
        String own = agentCatalogue.get();
        String outsideLines = outsideTools.get();
        DataFence.Fenced outside = outsideLines.isEmpty() ? null : fence.wrap("mcp tools", outsideLines.strip());
        String outsideText = outside == null ? "" : outsideIntro + outside.text();
        boolean small = compact.getAsBoolean();
        String system = system(new SystemInputs(settings.agentName(), instructions, small, own, outsideText));
        Section notes6 = notebook.render();
        Section pins3 = pinned.render(fence, reflexItems(snapshot, PinnedContext.INDEX));
        // context 1's own title names K: a new K changes the prompt there, so the window may drop then too
        Ahead ahead = new Ahead(system, settings.historyK(), notes6.render(), pins3.render());
        List<ResponsesDao.Shown> window = replies.window(settings.historyK(), !ahead.equals(aheadBefore), firstReplyBefore);
        Section replies1 = replies.render(settings.historyK(), window, reflexItems(snapshot, RepliesContext.INDEX));
        Section processes2 = processes.render(fence);
        ToolOffer offer = offer(settings.agentName(), own, outsideText, small);
        int systemTokens = systemTokens(system, offer, small);
        List<IncomingContext.Cut> cuts = new ArrayList<>();
        Section incoming4 = incoming.render(settings, fence, settings.promptBudgetTokens() - systemTokens, cuts);
        UserMessage user = new UserMessage(notes6, pins3, replies1, processes2, incoming4,
                cycleSettings.render(tickId, now, snapshot));
        // the window falls back to its last K replies before any of those is left out: the oldest leave together
        user.fit(Math.max(0, settings.promptBudgetTokens() - systemTokens),
                Math.max(0, window.size() - settings.historyK()));
        List<AssembledPrompt.Part> parts = new ArrayList<>();
        parts.add(new AssembledPrompt.Part(0, 0, system));
        parts.addAll(user.parts());
        List<Message> messages = List.of(Message.system(system), user.message(parts.subList(1, parts.size())));
        List<Long> noteIds = incoming4.rowIds();
        List<AssembledPrompt.DataShown> shown = new ArrayList<>(user.dataShown());
        if (outside != null) shown.add(0, outside.shown());
        AssembledPrompt prompt = new AssembledPrompt(messages, parts, settings.manualNotes() ? List.of() : noteIds,
                incoming.watermark(settings, noteIds), processes2.rowIds(), TokenEstimator.estimate(messages),
                user.trimmed(), shown, offer);
        tellCuts(cuts, noteIds, settings.promptBudgetTokens());
        return new Assembled(prompt, ahead, replies1.rowIds().stream().findFirst().orElse(0L));
    }

    /** Context 0 rendered from {@code inputs}: the last one again while they stay the same. */
    private String system(SystemInputs inputs) {
        if (!inputs.equals(systemFrom)) {
            systemBefore = SystemPrompt.render(inputs.agentName(), inputs.instructions(),
                    (inputs.small() ? CompactCommands.catalog(catalog) : catalog) + inputs.own(), inputs.outside());
            systemFrom = inputs;
        }
        return systemBefore;
    }

    /**
     * Tells the person, once per message, that the prompt shows only the start of a message of theirs, with the
     * numbers: their message is the task, and a cut they are not told of is a task they do not know was changed.
     */
    private void tellCuts(List<IncomingContext.Cut> cuts, List<Long> noteIds, int budget) {
        for (IncomingContext.Cut c : cuts) {
            if (!noteIds.contains(c.noteId()) || !cutsTold.add(c.noteId())) continue;
            if (cutsTold.size() > MAX_CUTS_REMEMBERED) cutsTold.remove(cutsTold.iterator().next());
            personNotices.accept(String.format(Locale.ROOT, "your message of %,d characters is more than the prompt"
                    + " holds at once (context.prompt_budget_tokens = %,d): the model sees the first %,d and reads the"
                    + " other %,d with note_read", c.total(), budget, c.shown(), c.total() - c.shown()));
        }
    }

    /**
     * Where a line for the person goes when the prompt shows only the start of a message of theirs (by default
     * nowhere); the runtime sends it to the screen.
     */
    public void tellPersonWith(Consumer<String> notices) {
        this.personNotices = Objects.requireNonNull(notices, "notices");
    }

    /**
     * What comes before the user message, in tokens, for whichever LLM entry answers: context 0 for blocks, or the
     * tools-mode context 0 and the tools (their names, descriptions and schemas), whichever is more.
     */
    private int systemTokens(String system, ToolOffer offer, boolean small) {
        int block = TokenEstimator.estimate(List.of(Message.system(system)));
        if (offer.anyJson()) block = Math.max(block, TokenEstimator.estimate(List.of(offer.jsonSystem())));
        if (!offer.any()) return block;
        return Math.max(block, TokenEstimator.estimate(List.of(offer.system())) + (small ? compactToolTokens : toolTokens));
    }

    /**
     * Context 0 for an entry that takes tool calls, with the tools; none when no tools are offered. It lists the
     * outside tools fenced as the block-mode context 0 does ({@code outside}, "" for none), with the same nonce; in
     * the compact form ({@code small}) only the core commands' tools and "use".
     */
    private ToolOffer offer(String agentName, String own, String outside, boolean small) {
        ReplySchema schema = replySchema;
        if (tools.isEmpty() && !schema.any()) return ToolOffer.NONE;
        List<ToolSpec> offered = small ? CompactCommands.tools(tools) : tools;
        Message forTools = Message.system(tools.isEmpty() ? "" : SystemPrompt.renderForTools(agentName, instructions,
                small ? CompactCommands.others(catalog) + "\n" + own : own, outside));
        Message forJson = Message.system(schema.any() ? SystemPrompt.renderForJson(agentName, instructions,
                (small ? CompactCommands.catalog(catalog) : catalog) + own, outside) : "");
        return new ToolOffer(offered, forTools, schema, forJson);
    }

    /** The reflex's items for context {@code context}, oldest first. */
    private static List<ReflexDao.Item> reflexItems(LiveSettings.Snapshot snapshot, int context) {
        return snapshot.reflexItems().stream().filter(i -> i.context() == context).toList();
    }
}
