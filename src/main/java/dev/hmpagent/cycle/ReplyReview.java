package dev.hmpagent.cycle;

import dev.hmpagent.commands.CommandBlockParser;
import dev.hmpagent.commands.ParsedReply;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.safety.Fingerprint;
import dev.hmpagent.stagnation.ChantDetector;
import dev.hmpagent.stagnation.Comparison;
import dev.hmpagent.stagnation.LocalComparator;
import dev.hmpagent.stagnation.ReplyComparator;
import dev.hmpagent.stagnation.StagnationReflex;
import dev.hmpagent.stagnation.Words;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.store.ResponseRow;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.StagnationDao;
import dev.hmpagent.text.Text;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Step 5 of the HMP cycle around one reply: a chant detector for the stream, the comparison with the previous reply
 * (which may be a call to an LLM, made outside any transaction and cancelled by a halt), what the signs of stagnation
 * need to know about the tick, and the reflex after the tick's write.
 */
public final class ReplyReview {
    /**
     * What step 5 found about a reply.
     *
     * @param repeated      identical to the previous reply, command block included character for character (white
     *                      space aside), with nothing new (no note, no result, no person's message) since it: not
     *                      stored again, its commands not run again
     * @param repeatOfTick  an earlier reply (within the repeat window) this one equals word for word, 0 if none or if
     *                      the reply answers a new message from a person
     * @param contentHash   SHA-256 of the normalised text
     * @param stimulus      the tick showed a new note or process result
     * @param personMessage the tick showed a new message from a person or the CLI
     * @param graphMark     the concepts' and links' highest ids as the tick began
     * @param calls         the comparison's call to a model, if it made one, as {@code llm_calls} records it
     * @param progress      the reply came after news from the world: a command's new result ({@link WorldProgress}),
     *                      or a new note from anyone but a person (a peer's, the system's: a person's message is
     *                      judged as before)
     * @param judgeDue      the comparison is the local one for now: a model is asked once the reply was shown and its
     *                      commands ran ({@link #judge})
     * @param newCommands   the reply asks for a command the previous one did not
     */
    record Reviewed(Comparison comparison, boolean repeated, long repeatOfTick, String contentHash, boolean stimulus,
                    boolean personMessage, String graphMark, List<LlmCall> calls, boolean progress, boolean judgeDue,
                    boolean newCommands) {
        Reviewed {
            Objects.requireNonNull(comparison, "comparison");
            calls = List.copyOf(calls);
            Objects.requireNonNull(contentHash, "contentHash");
            Objects.requireNonNull(graphMark, "graphMark");
        }

        /** What the model's comparison found, and its calls: nothing is left to ask. */
        Reviewed judged(Comparison judged, List<LlmCall> judgeCalls) {
            return new Reviewed(judged, repeated, repeatOfTick, contentHash, stimulus, personMessage, graphMark,
                    judgeCalls, progress, false, newCommands);
        }
    }

    /** Chanting inside one streamed reply: the shortest chunk that counts and how many repeats in a row. */
    public record ChantLimits(int minPeriod, int repeats) {
        static final ChantLimits DEFAULTS = new ChantLimits(20, 10);
        /** The longest chunk looked for: a few sentences. */
        static final int MAX_PERIOD = 400;
    }

    private final ReplyComparator comparator;
    private final LocalComparator local;
    private final CommandBlockParser parser;
    private final StagnationReflex reflex;
    private final ResponsesDao responses;
    private final StagnationDao metrics;
    private final int repeatWindow;
    private final ChantLimits chant;
    private final Supplier<List<LlmCall>> comparisonCalls;
    private final WorldProgress world;

    /** The commands of a reply, by fingerprint, as it was read when it came: the next reply is compared with it. */
    private record Asked(String text, Set<String> commands) {
        static final Asked NONE = new Asked(null, Set.of());
    }

    /** The last reply reviewed and its commands, read once (tick thread only). */
    private Asked last = Asked.NONE;

    /**
     * @param comparator      the configured comparison (local, llm or hybrid)
     * @param local           the local one, for replies cut short
     * @param repeatWindow    how many earlier replies an exact repeat is looked for in (0: none)
     * @param comparisonCalls takes the calls the comparator made since it was last asked ({@link dev.hmpagent.llm.MeteredLlm#take()}
     *                        of the comparator's client; nothing for the local comparison)
     * @param world           what the commands' results did since the last reply (the executor tells it)
     */
    public ReplyReview(ReplyComparator comparator, LocalComparator local, CommandBlockParser parser,
                       StagnationReflex reflex, ResponsesDao responses, StagnationDao metrics, int repeatWindow,
                       ChantLimits chant, Supplier<List<LlmCall>> comparisonCalls, WorldProgress world) {
        this.world = Objects.requireNonNull(world, "world");
        this.comparisonCalls = Objects.requireNonNull(comparisonCalls, "comparisonCalls");
        this.comparator = Objects.requireNonNull(comparator, "comparator");
        this.local = Objects.requireNonNull(local, "local");
        this.parser = Objects.requireNonNull(parser, "parser");
        this.reflex = Objects.requireNonNull(reflex, "reflex");
        this.responses = Objects.requireNonNull(responses, "responses");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.repeatWindow = repeatWindow;
        this.chant = Objects.requireNonNull(chant, "chant");
    }

    /** A detector for one streamed reply. */
    ChantDetector chantDetector() {
        return new ChantDetector(chant.minPeriod(), chant.repeats(), Math.max(ChantLimits.MAX_PERIOD, chant.minPeriod()));
    }

    /** The concepts' and links' highest ids now; read as a tick begins. */
    String graphMark() {
        return metrics.graphMark();
    }

    /**
     * Compares the reply with the previous one, without asking a model: a comparison that needs a model's call gets
     * the local one for now and {@link Reviewed#judgeDue()}, and is asked by {@link #judge} once the reply was shown
     * and its commands ran (issue 35: the answer waited 15.5 s for it). A reply cut short (interrupted) is compared
     * locally only: no tokens are spent on a reply that answers nothing. A reply after news from the world (a
     * command's new result since the last reply, or a new note that is not a person's) is progress: no judge call is
     * made for it.
     */
    Reviewed review(Optional<ResponseRow> previous, Completion reply, ParsedReply parsed, boolean stimulus,
                    boolean newNote, boolean personMessage, String graphMark) {
        comparisonCalls.get();   // a call of a review that failed before its tick could write it is not this tick's
        Set<String> commands = fingerprints(parsed);
        // a person's message is news too, but it opens a new window of the signs already, and the judge's score of
        // the answer is what the next ticks are measured against: it is judged as before
        boolean progress = world.take() | (newNote && !personMessage);
        Comparison c;
        boolean fresh = false;
        Optional<Comparison> decided = Optional.empty();
        if (previous.isEmpty()) {
            c = Comparison.first();
        } else if (reply.interrupted()) {
            c = local.compare(previous.get().content(), reply.text());
        } else if (progress) {
            c = comparator.compareAfterProgress(previous.get().content(), reply.text());
        } else {
            fresh = newCommands(previous.get(), commands);
            decided = comparator.withoutCall(previous.get().content(), reply.text(), fresh);
            c = decided.orElseGet(() -> local.compare(previous.get().content(), reply.text()));
        }
        boolean judgeDue = previous.isPresent() && !reply.interrupted() && !progress && decided.isEmpty();
        String hash = Words.contentHash(reply.text());
        // a reply to a new message from a person answers it, whatever it repeats: no sign, and it is shown
        long repeatOf = reply.interrupted() || personMessage ? 0
                : responses.tickWithHash(hash, repeatWindow).orElse(0L);
        // a repeat is stagnation only when nothing new arrived since the reply it repeats
        boolean repeated = !stimulus && !personMessage && c.identical() && !reply.interrupted()
                && commandBlock(previous.get().content()).equals(commandBlock(reply.text()));
        last = new Asked(reply.text(), commands);
        return new Reviewed(c, repeated, repeatOf, hash, stimulus, personMessage, graphMark, comparisonCalls.get(),
                progress, judgeDue, fresh);
    }

    /**
     * The model's comparison of a reply whose {@link Reviewed#judgeDue()}, asked after the reply was shown and its
     * commands ran; {@code request} is the main request it answered (a comparison may share its prefix). Empty when
     * nothing was due.
     */
    Optional<Reviewed> judge(Reviewed reviewed, String previous, String reply, List<dev.hmpagent.llm.Message> request) {
        if (!reviewed.judgeDue()) return Optional.empty();
        comparisonCalls.get();   // a call of a judge that failed before its tick could write it is not this tick's
        comparator.answered(request, reply);
        Comparison c = comparator.compare(previous, reply, reviewed.newCommands());
        return Optional.of(reviewed.judged(c, comparisonCalls.get()));
    }

    /**
     * Whether the reply asks for a command (by type and arguments) the previous reply did not. The previous reply's
     * commands are those read when it came, kept; only a previous reply this run did not review (the one before a
     * restart, or one kept from a failed write) is parsed again from its row.
     */
    private boolean newCommands(ResponseRow previous, Set<String> commands) {
        if (commands.isEmpty()) return false;
        Set<String> before = previous.content().equals(last.text()) ? last.commands()
                : fingerprints(parser.parse(previous.content()));
        return commands.stream().anyMatch(c -> !before.contains(c));
    }

    private static Set<String> fingerprints(ParsedReply parsed) {
        Set<String> out = new HashSet<>();
        parsed.commands().forEach(c -> out.add(Fingerprint.ofCommand(c.type(), c.args())));
        return out;
    }

    /**
     * The command block of a reply (from its last marker), white space collapsed: two replies with the same words may
     * still ask for different commands ({@code [[[} against {@code [[]]}), and those run.
     */
    static String commandBlock(String reply) {
        int at = Math.max(reply.lastIndexOf("# Commands:"), reply.lastIndexOf("# Команды:"));
        return at < 0 ? "" : Text.oneLine(reply.substring(at), Integer.MAX_VALUE);
    }

    /** A halt: the comparison call in flight, if any, is cancelled (the comparison then falls back to local). */
    void cancel() {
        comparator.cancel();
    }

    StagnationReflex.After afterReply(long tickId, double novelty, boolean personMessage) {
        return reflex.afterReply(tickId, novelty, personMessage);
    }

    /** The pause between thoughts the reflex imposes while nobody answers its questions. */
    public java.time.Duration slowDown() {
        return reflex.slowDown();
    }
}
