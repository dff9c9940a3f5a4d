package dev.hmpagent.runtime;

import dev.hmpagent.config.LlmSection;
import dev.hmpagent.config.RegistryEntry;
import dev.hmpagent.config.Secrets;
import dev.hmpagent.context.StandingInstructions;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.store.LlmRegistryDao;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a start writes before the first tick, by the runner that holds the file's lock (wiring builds, never writes):
 * commands a dead run left become offline, llm_registry says what the configuration names, and a quota stop is
 * released when the configuration names other LLMs.
 */
final class StartWrites {
    private StartWrites() { }

    /**
     * Commands a process that died left pending or running become {@code offline}: they never run again, and the
     * LLM learns so from their result. Only the runner holding the lock may do this (a live runner's rows are its own).
     */
    static void recoverOrphans(Store store, EventSink events) {
        int n = store.inTransaction(() -> store.tables().processLog().markOrphansOffline());
        if (n > 0) {
            events.emit(new AgentEvent.Info(n + " command" + (n == 1 ? "" : "s") + " left unfinished by the previous run "
                    + (n == 1 ? "is" : "are") + " marked offline (not run again; the agent is told)"));
        }
    }

    /** The LLM rows of this start: {@link #registerLlms}, then {@link #releaseQuotaStop}. */
    static void llms(Store store, LlmSection llm, EventSink events) {
        registerLlms(store, llm);
        releaseQuotaStop(store, llm, events);
    }

    /**
     * llm_registry as the configuration says at this start: the main LLM (id main, priority 0) and the llm.registry
     * entries; rows of entries no longer configured go. Each row names its key's variable, never the key.
     */
    static void registerLlms(Store store, LlmSection llm) {
        LlmRegistryDao registry = store.tables().llmRegistry();
        store.inTransaction(() -> {
            registry.register(LlmRegistryDao.MAIN_ID, llm.model(), "the LLM agent.toml configures",
                    llm.provider().configName(), Secrets.redactUrl(llm.baseUrl()), llm.model(), 0, llm.keyVariable());
            List<String> ids = new ArrayList<>(List.of(LlmRegistryDao.MAIN_ID));
            for (RegistryEntry e : llm.registry()) {
                registry.register(e.id(), e.id(), e.description().isEmpty() ? "llm.registry in agent.toml" : e.description(),
                        e.provider().configName(), e.baseUrl(), e.model(), e.priority(), e.apiKeyEnv());
                registry.markConfigured(e.id());
                ids.add(e.id());
            }
            registry.retainConfigured(ids);
        });
    }

    /**
     * A quota stop is released when the configuration names other LLMs than the ones whose quota ran out, and the
     * agent says so; with the same LLMs it stays, and says what releases it.
     */
    static void releaseQuotaStop(Store store, LlmSection llm, EventSink events) {
        SafetyControl.Change o = new SafetyControl(store)
                .releaseQuotaIfConfigChanged(LlmChain.llmLines(llm), Requester.thisProcess());
        if (o.result() == SafetyControl.Result.MOVED) {
            events.emit(new AgentEvent.Info("the quota stop is released: the agent starts with other LLMs than the"
                    + " ones whose quota ran out"));
        } else if (o.result() == SafetyControl.Result.REFUSED) {
            events.emit(new AgentEvent.Problem("the agent is stopped (quota) since " + o.before().since() + ": "
                    + o.before().detail() + " — point llm.* at another provider or model (or add an llm.registry"
                    + " entry) and start it again"));
        }
    }

    /** What the start's banner says of AGENTS.md: read (and how much), or nothing when there is none. */
    static String bannerPart(StandingInstructions read) {
        if (!read.found()) return "";
        return ", " + StandingInstructions.FILE_NAME + " read (" + read.bytes() + " bytes" + (read.cut() ? ", cut" : "")
                + ")";
    }

    /**
     * {@code AGENTS.md} in the working directory, read once: found, a detail line saying so; cut or unreadable, one
     * line to the person, whoever watches; and one more when it takes over half of the prompt budget.
     */
    static StandingInstructions instructions(Path workingDir, int budgetTokens, EventSink events) {
        StandingInstructions read = StandingInstructions.read(workingDir);
        if (read.cut() || !read.problem().isEmpty()) events.emit(new AgentEvent.Problem(read.line()));
        else if (read.found()) events.emit(new AgentEvent.Info(read.line(), true));
        int tokens = TokenEstimator.estimate(read.text());
        if (tokens * 2L > budgetTokens) {
            events.emit(new AgentEvent.Problem(read.file() + " is about " + tokens + " tokens, over half of"
                    + " context.prompt_budget_tokens (" + budgetTokens + "): the rest of the prompt is trimmed to fit;"
                    + " raise the budget or shorten the file"));
        }
        return read;
    }
}
