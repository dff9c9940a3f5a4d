package dev.hmpagent.repl;

import dev.hmpagent.store.LlmCallsDao.ModelTokens;
import java.util.List;

/**
 * Tokens by model ({@code llm_calls}), cached apart: since the agent started and over the file's life.
 *
 * @param session  the calls of this run of the agent
 * @param lifetime every call the file records
 */
public record ModelUsage(List<ModelTokens> session, List<ModelTokens> lifetime) {
    public ModelUsage {
        session = List.copyOf(session);
        lifetime = List.copyOf(lifetime);
    }
}
