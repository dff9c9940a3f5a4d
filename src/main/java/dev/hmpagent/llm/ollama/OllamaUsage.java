package dev.hmpagent.llm.ollama;

import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.llm.Usage;

import java.util.List;

/**
 * The {@link Usage} of one {@code /api/chat} call from the counts of its final object.
 *
 * <p>What Ollama reports has changed with its prompt cache (it keeps the KV cache of the last prompt and evaluates
 * only what follows the longest shared prefix):
 * <ul>
 * <li>up to 0.1.x it reported only the tokens it evaluated, and left {@code prompt_eval_count} out when the whole
 *     prompt came from the cache (ollama/ollama#2068, #3427);</li>
 * <li>from mid-2024 {@code prompt_eval_count} is the whole prompt, cached or not (ollama/ollama#5371), except in the
 *     0.30 llama-server runner, which again counted only the uncached part until ollama/ollama#16428;</li>
 * <li>since ollama/ollama#17943 (2026-08) {@code prompt_eval_cached_count} says how many of them came from the cache,
 *     and {@code prompt_eval_count} stays the whole prompt.</li>
 * </ul>
 *
 * <p>So: with {@code prompt_eval_cached_count}, the server's numbers are taken as they are ({@code cachedTokens} =
 * the cached count). Without it, a {@code prompt_eval_count} of at least half our estimate is taken as the whole
 * prompt (the estimate is rough, ~4 characters a token, so a real count somewhat below it is normal) with no cached
 * tokens known. A {@code prompt_eval_count} that is absent, or below half the estimate, is read as an older server's
 * uncached remainder: {@code promptTokens} is then the estimate, {@code cachedTokens} the estimate less what the
 * server evaluated, and the usage is marked estimated. That errs towards counting too much, never too little: a
 * budget kept from these numbers never misses a prompt the server read from its cache. (A prompt Ollama cut to fit
 * {@code num_ctx} also shows a low count; it too is counted at the estimate.)
 *
 * <p>{@code completionTokens} is {@code eval_count}; when it is missing (or 0 for a reply with text) it is estimated.
 * With no final object at all (a cancelled or cut reply) both counts are estimated, as the OpenAI adapter does.
 */
final class OllamaUsage {
    private OllamaUsage() { }

    static Usage of(List<Message> prompt, String reply, ServerCounts counts) {
        return of(prompt, reply, counts, false);
    }

    /** As {@link #of(List, String, ServerCounts)}; a reply {@code interrupted} before any of it arrived counts 0 out. */
    static Usage of(List<Message> prompt, String reply, ServerCounts counts, boolean interrupted) {
        int estimate = Math.max(1, TokenEstimator.estimate(prompt));
        int replyEstimate = TokenEstimator.reply(reply, interrupted);
        if (counts == null || !counts.any()) return new Usage(estimate, replyEstimate, true);
        int eval = counts.evalCount();
        boolean completionSent = eval > 0 || (eval == 0 && reply.isEmpty());
        int completion = completionSent ? eval : replyEstimate;
        int reported = counts.promptEvalCount();
        int cached = counts.promptEvalCachedCount();
        if (reported > 0 && cached != ServerCounts.NOT_SENT) {
            return new Usage(reported, completion, !completionSent, Math.min(cached, reported));
        }
        if (reported > 0 && 2L * reported >= estimate) return new Usage(reported, completion, !completionSent);
        int evaluated = Math.max(0, reported);
        return new Usage(estimate, completion, true, estimate - evaluated);
    }
}
