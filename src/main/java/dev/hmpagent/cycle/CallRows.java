package dev.hmpagent.cycle;

import dev.hmpagent.llm.MeteredLlm;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.store.LlmCall;
import java.util.function.Function;

/** A metered call ({@link MeteredLlm.Call}) as the {@code llm_calls} row its tick writes. */
public final class CallRows {
    private CallRows() { }

    /** The rows of calls made for {@code purpose}. */
    public static Function<MeteredLlm.Call, LlmCall> as(LlmCall.Purpose purpose) {
        return c -> {
            Usage u = c.usage();
            return new LlmCall(purpose, c.at(), c.model(), c.endpoint(), u.promptTokens(), u.cachedTokens(),
                    u.completionTokens(), u.estimated(), c.durationMs(), outcome(c.ending()), c.errorKind());
        };
    }

    private static LlmCall.Outcome outcome(MeteredLlm.Ending ending) {
        return switch (ending) {
            case OK -> LlmCall.Outcome.OK;
            case INTERRUPTED -> LlmCall.Outcome.INTERRUPTED;
            case ERROR -> LlmCall.Outcome.ERROR;
        };
    }
}
