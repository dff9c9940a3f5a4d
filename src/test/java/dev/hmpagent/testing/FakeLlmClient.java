package dev.hmpagent.testing;

import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.llm.Usage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;

/**
 * An in-process LLM with scripted replies; records every request it was sent. Step 5's comparison mini-requests (the
 * hybrid and llm modes) are kept apart: they are answered from {@link #judge} (by default "yes, new", novelty 0.9),
 * recorded in {@link #comparisons}, and never take a scripted reply or count in {@link #requests}.
 */
public final class FakeLlmClient implements LlmClient {
    private final Deque<Supplier<Completion>> script = new ArrayDeque<>();
    public final List<LlmRequest> requests = new ArrayList<>();
    /** The comparison mini-requests, in order. */
    public final List<LlmRequest> comparisons = new ArrayList<>();
    /** False: comparison requests are like any other (a comparator's own tests script their answers). */
    public boolean judgeComparisons = true;
    /** How comparison requests are answered: the reply text for a request. */
    public java.util.function.Function<LlmRequest, String> judge =
            r -> "{\"new_thoughts\": \"yes\", \"novelty\": 0.9, \"new_ideas\": [], \"refined_ideas\": [],"
                    + " \"discarded_ideas\": []}";
    /** The model comparison answers name, and how many of their prompt tokens the "server" read from its cache. */
    public String judgeModel = "fake-model";
    public int judgeCachedTokens;
    /** Characters streamed to listeners so far (by {@link #streamed}). */
    public int streamedChars;
    private StreamListener listener = StreamListener.NONE;
    private volatile boolean cancelled;

    public FakeLlmClient reply(String text) {
        script.add(() -> completion(text, false));
        return this;
    }

    /** Replies {@code text} after running {@code meanwhile} (something that happens while the call is in flight). */
    public FakeLlmClient replyAfter(Runnable meanwhile, String text) {
        script.add(() -> {
            meanwhile.run();
            return completion(text, false);
        });
        return this;
    }

    /**
     * Streams {@code text} to the call's listener in chunks of {@code chunk} characters, stopping as soon as the call is
     * cancelled (then the reply is the part sent so far, interrupted), like a real streaming server.
     */
    public FakeLlmClient streamed(String text, int chunk) {
        script.add(() -> {
            StringBuilder sent = new StringBuilder();
            for (int i = 0; i < text.length() && !cancelled; i += chunk) {
                String delta = text.substring(i, Math.min(text.length(), i + chunk));
                sent.append(delta);
                streamedChars += delta.length();
                listener.onDelta(delta);
            }
            return completion(sent.toString(), cancelled);
        });
        return this;
    }

    /** Replies {@code text} with exactly this usage, answered by {@code model} (a server that reports cached tokens). */
    public FakeLlmClient reply(String text, Usage usage, String model) {
        script.add(() -> new Completion(text, usage, model, "stop", false));
        return this;
    }

    /** Replies {@code text} cut at its length limit (finish reason "length"), as a server does at max_tokens. */
    public FakeLlmClient replyCut(String text) {
        script.add(() -> completion(text, false).with(text, "length", false));
        return this;
    }

    public FakeLlmClient interruptedReply(String partial) {
        script.add(() -> completion(partial, true));
        return this;
    }

    public FakeLlmClient fail(LlmException e) {
        script.add(new Failing(e));
        return this;
    }

    /** A scripted failure: a probe meeting it fails the same way and uses it up, as the call would have. */
    private record Failing(LlmException e) implements Supplier<Completion> {
        @Override
        public Completion get() {
            throw e;
        }
    }

    /** Cheap checks whether the server answers (see {@link LlmClient#probe()}); never counted in {@link #requests}. */
    public int probes;

    /**
     * Answers like the next scripted call would: a scripted failure fails the probe (and is used up by it); a scripted
     * reply, or none, lets it pass and stays for the call.
     */
    @Override
    public void probe(dev.hmpagent.llm.CallCancel cancel) {
        probes++;
        if (script.peek() instanceof Failing f) {
            script.poll();
            throw f.e();
        }
    }

    private Completion completion(String text, boolean interrupted) {
        LlmRequest last = requests.get(requests.size() - 1);
        return new Completion(text, new Usage(TokenEstimator.estimate(last.messages()), TokenEstimator.estimate(text), true),
                "fake-model", interrupted ? "" : "stop", interrupted);
    }

    /** Whether {@code request} is step 5's comparison mini-request. */
    public static boolean isComparison(LlmRequest request) {
        return dev.hmpagent.stagnation.LlmComparator.isComparison(request.messages());
    }

    @Override
    public Completion complete(LlmRequest request, StreamListener listener, dev.hmpagent.llm.CallCancel cancel) {
        if (judgeComparisons && isComparison(request)) {
            comparisons.add(request);
            String answer = judge.apply(request);
            int prompt = TokenEstimator.estimate(request.messages());
            return new Completion(answer, new Usage(prompt, TokenEstimator.estimate(answer), true,
                    Math.min(prompt, judgeCachedTokens)), judgeModel, "stop", false);
        }
        requests.add(request);
        if (script.isEmpty()) throw new AssertionError("the fake LLM was called more often than scripted: " + requests.size());
        this.listener = listener;
        this.cancelled = false;
        cancel.onCancel(() -> cancelled = true);
        try {
            return script.poll().get();
        } finally {
            this.listener = StreamListener.NONE;
        }
    }

    /** The user message (contexts 1-6) of the n-th request, 0-based. */
    public String userPrompt(int n) {
        return requests.get(n).messages().get(1).content();
    }

    public String systemPrompt(int n) {
        return requests.get(n).messages().get(0).content();
    }

    @Override
    public String endpoint() { return "http://fake/v1"; }

    @Override
    public String model() { return "fake-model"; }
}
