package dev.hmpagent.stagnation;

import dev.hmpagent.stagnation.Comparison.Verdict;
import dev.hmpagent.llm.Message;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Local first, a model only where the local score cannot tell: a reply that is identical or nearly so
 * (novelty below {@code nearIdentical}) or clearly new (above {@code ambiguousHigh}) is judged locally,
 * method {@code hybrid:local}, no call. In between (a paraphrase, a step that recaps a lot) the model is
 * asked: its verdict and novelty when its verdict is known, else the local ones; its idea lists when it gave
 * any, else the local ones (the three lists come from one side, never mixed); method {@code hybrid:llm},
 * usage the call's.
 */
public final class HybridComparator implements ReplyComparator {
    private final LocalComparator local;
    private final LlmComparator llm;
    private final double nearIdentical;
    private final double ambiguousHigh;

    /**
     * @param local         judges every pair first
     * @param llm           asked in the ambiguous band
     * @param nearIdentical below this local novelty the pair is a repeat, no call (e.g. 0.15)
     * @param ambiguousHigh above this local novelty the pair is new, no call (e.g. 0.9); at least nearIdentical
     */
    public HybridComparator(LocalComparator local, LlmComparator llm, double nearIdentical, double ambiguousHigh) {
        this.local = Objects.requireNonNull(local, "local");
        this.llm = Objects.requireNonNull(llm, "llm");
        if (!(nearIdentical >= 0.0 && nearIdentical <= ambiguousHigh && ambiguousHigh <= 1.0)) {
            throw new IllegalArgumentException("need 0 <= nearIdentical <= ambiguousHigh <= 1: "
                    + nearIdentical + ", " + ambiguousHigh);
        }
        this.nearIdentical = nearIdentical;
        this.ambiguousHigh = ambiguousHigh;
    }

    @Override
    public Comparison compare(String previous, String current) {
        return compare(previous, current, false);
    }

    /**
     * As {@link #compare(String, String)}; a reply in the band that asks for a command the previous one did not is
     * new without a call (it "holds new commands"): only a reply that says much the same and does the same is put to
     * the model.
     */
    @Override
    public Comparison compare(String previous, String current, boolean newCommands) {
        Comparison here = local.compare(previous, current);
        Optional<Comparison> decided = decided(here, newCommands);
        if (decided.isPresent()) return decided.get();
        Comparison asked = llm.ask(previous, current, here);
        boolean known = asked.verdict() != Verdict.UNKNOWN;
        Comparison ideas = asked.hasIdeas() ? asked : here;
        return new Comparison(known ? asked.verdict() : here.verdict(), known ? asked.novelty() : here.novelty(),
                ideas.newIdeas(), ideas.refinedIdeas(), ideas.discardedIdeas(), Comparison.HYBRID_LLM, asked.usage(),
                false);
    }

    @Override
    public Optional<Comparison> withoutCall(String previous, String current, boolean newCommands) {
        return decided(local.compare(previous, current), newCommands);
    }

    /** What the local score decides alone: identical, nearly so, clearly new, or new commands; empty for the band. */
    private Optional<Comparison> decided(Comparison here, boolean newCommands) {
        if (decidedLocally(here)) return Optional.of(here.withMethod(Comparison.HYBRID_LOCAL, Comparison.NO_CALL));
        if (!newCommands) return Optional.empty();
        return Optional.of(new Comparison(Verdict.NEW, here.novelty(), here.newIdeas(), here.refinedIdeas(),
                here.discardedIdeas(), Comparison.HYBRID_LOCAL, Comparison.NO_CALL, false));
    }

    @Override
    public void answered(List<Message> request, String reply) {
        llm.answered(request, reply);
    }

    /** After news from the world: the local score where it decides alone, else new without a call (hybrid:local). */
    @Override
    public Comparison compareAfterProgress(String previous, String current) {
        Comparison here = local.compare(previous, current);
        return decidedLocally(here) ? here.withMethod(Comparison.HYBRID_LOCAL, Comparison.NO_CALL)
                : llm.countedNew(here, Comparison.HYBRID_LOCAL);
    }

    /** Identical, nearly so, or clearly new: no model needed. */
    private boolean decidedLocally(Comparison here) {
        return here.identical() || here.novelty() < nearIdentical || here.novelty() > ambiguousHigh;
    }

    @Override
    public void cancel() {
        llm.cancel();
    }
}
