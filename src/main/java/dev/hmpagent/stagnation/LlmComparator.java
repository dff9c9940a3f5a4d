package dev.hmpagent.stagnation;

import dev.hmpagent.llm.CallCancel;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.stagnation.Comparison.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The HMP way to compare: a mini-request to a model (possibly a cheaper one than the agent's) holding only the
 * two replies, not the agent's context; temperature 0. Identical replies (the local check) are answered
 * locally without a call. The answer is read by {@link ComparisonParser}.
 *
 * <p>Never throws for the call: a failed call ({@link LlmException}) gives UNKNOWN with the local novelty and
 * lists and no usage; a cancelled one ({@link #cancel()}, or an interrupted completion) gives the same with
 * the usage the completion reported. One comparison at a time per instance.
 */
public final class LlmComparator implements ReplyComparator {
    /** Each reply is clipped to this many characters in the request, keeping its start and its end. */
    static final int MAX_REPLY_CHARS = 3_000;

    /** The system message every comparison request starts with (a fake model tells them from main calls by it). */
    public static final String SYSTEM_PROMPT = """
            You compare two consecutive replies of an autonomous agent that thinks in ticks, to tell whether it \
            is making progress or going round in circles. Answer with one JSON object and nothing else.""";

    static final String INSTRUCTIONS = """
            Answer with JSON only, in this shape:
            {"new_thoughts": "yes" or "no", "novelty": 0.0 to 1.0, "new_ideas": [...], "refined_ideas": [...], \
            "discarded_ideas": [...]}
            - new_thoughts: "yes" if the new reply holds a thought or a command the previous one did not, \
            "no" if it repeats the previous one, even in other words.
            - novelty: how much of the new reply is new, from 0 (a repeat) to 1 (all new).
            - new_ideas: the ideas or commands of the new reply that the previous one did not have.
            - refined_ideas: the ideas of the previous reply that the new one develops, corrects or rewords.
            - discarded_ideas: the ideas of the previous reply that the new one drops.
            At most 5 items a list, a few words each.""";

    private final LlmClient client;
    private final int maxTokens;
    private final LocalComparator local;
    private final ComparisonParser parser;
    private final double noveltyThreshold;

    /**
     * How the question is put: {@code SHORT}, the two replies alone (the HMP mini-request); {@code SHARED}, after the
     * main request and the reply it got, so the server's prompt cache, which holds just that, survives the
     * comparison: on a one-slot server (llama.cpp's default, Ollama per model) a short question evicts it and the
     * next main call reads its whole prompt again (issue 35: 5 cached tokens of 4,598, 27.8-35.8 s to the first
     * token, against 3.3-5 s).
     */
    public enum Form { SHORT, SHARED }

    private final Form form;
    /** The main request and the reply it got, for the {@code SHARED} form (tick thread). */
    private List<Message> answeredRequest = List.of();
    private String answeredReply = "";

    private final Object lock = new Object();
    private boolean inCall;
    private boolean cancelRequested;
    /** The cancel of the judge call being made (guarded by lock): a cancel before its HTTP call attaches aborts it. */
    private CallCancel callCancel = new CallCancel();

    /**
     * @param client           the model to ask (may be a cheaper one than the agent's)
     * @param maxTokens        the most tokens the answer may take
     * @param noveltyThreshold a novelty the model gives without a verdict is NEW from this value up (0..1)
     * @param local            for the identical check and what is known when the model's answer is not
     */
    public LlmComparator(LlmClient client, int maxTokens, double noveltyThreshold, LocalComparator local) {
        this(client, maxTokens, noveltyThreshold, local, Form.SHORT);
    }

    /** As above; {@code form}: how the question is put. */
    public LlmComparator(LlmClient client, int maxTokens, double noveltyThreshold, LocalComparator local, Form form) {
        this.form = Objects.requireNonNull(form, "form");
        this.client = Objects.requireNonNull(client, "client");
        if (maxTokens <= 0) throw new IllegalArgumentException("maxTokens must be > 0: " + maxTokens);
        this.maxTokens = maxTokens;
        this.parser = new ComparisonParser(noveltyThreshold);
        this.noveltyThreshold = noveltyThreshold;
        this.local = Objects.requireNonNull(local, "local");
    }

    /**
     * Every pair is put to the model (the HMP way; the hybrid mode is the one that spares calls). Whether two replies
     * are identical is still judged locally, never from the model's score: an identical pair stays SAME with novelty
     * 0, whatever the model answers; only the call's usage is kept.
     */
    @Override
    public Comparison compare(String previous, String current) {
        Comparison here = local.compare(previous, current);
        Comparison asked = ask(previous, current, here);
        return here.identical() ? here.withMethod(Comparison.LLM, asked.usage()) : asked;
    }

    /** No call after news from the world: the reply is new (method {@code local}) unless identical. */
    @Override
    public Comparison compareAfterProgress(String previous, String current) {
        return countedNew(local.compare(previous, current), Comparison.LOCAL);
    }

    /**
     * What the model is not asked about, judged {@code method}: an identical pair stays SAME with novelty 0, any other
     * is NEW with at least the novelty threshold and the local idea lists.
     */
    Comparison countedNew(Comparison here, String method) {
        if (here.identical()) return here.withMethod(method, Comparison.NO_CALL);
        return new Comparison(Verdict.NEW, Math.max(here.novelty(), noveltyThreshold), here.newIdeas(),
                here.refinedIdeas(), here.discardedIdeas(), method, Comparison.NO_CALL, false);
    }

    /**
     * Cancels the call in flight, if any. A cancel that lands after the comparison began but before the client
     * started (or after it answered) still counts: the answer is not used.
     */
    @Override
    public void cancel() {
        CallCancel cancelled;
        synchronized (lock) {
            if (!inCall) return;
            cancelRequested = true;
            cancelled = callCancel;
        }
        cancelled.cancel();
    }

    /** Asks the model about two replies that are not identical; {@code here} is their local comparison. */
    Comparison ask(String previous, String current, Comparison here) {
        LlmRequest request = request(previous, current);
        CallCancel cancel = new CallCancel();
        synchronized (lock) {
            inCall = true;
            cancelRequested = false;
            callCancel = cancel;
        }
        Completion answer;
        try {
            answer = client.complete(request, StreamListener.NONE, cancel);
        } catch (LlmException e) {
            return unknown(here, Comparison.NO_CALL);
        } finally {
            synchronized (lock) {
                inCall = false;
            }
        }
        boolean cancelled;
        synchronized (lock) {
            cancelled = cancelRequested;
        }
        if (cancelled || answer.interrupted()) return unknown(here, answer.usage());
        return parser.parse(answer.text(), here, answer.usage());
    }

    @Override
    public void answered(List<Message> request, String reply) {
        if (form == Form.SHORT) return;
        answeredRequest = List.copyOf(request);
        answeredReply = Objects.requireNonNull(reply, "reply");
    }

    LlmRequest request(String previous, String current) {
        String user = "Previous reply:\n<<<\n" + clip(previous) + "\n>>>\n\nNew reply:\n<<<\n" + clip(current)
                + "\n>>>\n\n" + INSTRUCTIONS;
        if (form == Form.SHARED && !answeredRequest.isEmpty() && answeredReply.equals(current)) {
            // the question follows the request and the reply the server has just cached; the replies are quoted again
            // all the same, so the answer means the same as the short form's
            List<Message> messages = new ArrayList<>(answeredRequest);
            messages.add(Message.assistant(current));
            messages.add(Message.user(SYSTEM_PROMPT + "\n\n" + user));
            return new LlmRequest(messages, 0.0, maxTokens);
        }
        return new LlmRequest(List.of(Message.system(SYSTEM_PROMPT), Message.user(user)), 0.0, maxTokens);
    }

    /**
     * Whether {@code messages} are a comparison request, in either form: its first or its last message starts with
     * {@link #SYSTEM_PROMPT} (a fake model or a proxy tells them from main calls by it).
     */
    public static boolean isComparison(List<Message> messages) {
        return !messages.isEmpty() && (messages.get(0).content().startsWith(SYSTEM_PROMPT)
                || messages.get(messages.size() - 1).content().startsWith(SYSTEM_PROMPT));
    }

    private static Comparison unknown(Comparison here, Usage usage) {
        return new Comparison(Verdict.UNKNOWN, here.novelty(), here.newIdeas(), here.refinedIdeas(),
                here.discardedIdeas(), Comparison.LLM, usage, false);
    }

    /**
     * A reply of at most {@link #MAX_REPLY_CHARS} characters: a longer one keeps its first and last halves
     * around a "[…]" line, since its commands come last.
     */
    static String clip(String reply) {
        if (reply.length() <= MAX_REPLY_CHARS) return reply;
        int half = MAX_REPLY_CHARS / 2;
        int headEnd = half;
        if (Character.isHighSurrogate(reply.charAt(headEnd - 1))) headEnd--;
        int tailStart = reply.length() - half;
        if (Character.isLowSurrogate(reply.charAt(tailStart))) tailStart++;
        return reply.substring(0, headEnd) + "\n[…]\n" + reply.substring(tailStart);
    }
}
