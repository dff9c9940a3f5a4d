package dev.hmpagent.runtime;

import dev.hmpagent.llm.SwitchableLlm;
import dev.hmpagent.config.LlmSection;
import dev.hmpagent.config.Secrets;
import dev.hmpagent.cycle.StagnationReflex;
import dev.hmpagent.config.Provider;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.store.LlmRegistryDao;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The reflex's "switch LLM": the next {@code llm_registry} entry by priority (a provider this agent speaks, a base URL
 * and a model) thinks until a novel reply, then the configured
 * LLM again. The entry's key is read from the variable it names and sent only to its own base URL.
 */
public final class RegistrySwitch implements StagnationReflex.ModelSwitch {
    private final LlmRegistryDao registry;
    private final java.util.function.Function<String, String> variables;
    private final LlmSection main;
    private final SwitchableLlm target;

    /** @param variables the environment by variable name (null when unset), where each entry's key is read */
    public RegistrySwitch(LlmRegistryDao registry, java.util.function.Function<String, String> variables, LlmSection main,
                   SwitchableLlm target) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.variables = Objects.requireNonNull(variables, "variables");
        this.main = Objects.requireNonNull(main, "main");
        this.target = Objects.requireNonNull(target, "target");
    }

    @Override
    public boolean available() {
        return !target.switched() && next().isPresent();
    }

    @Override
    public String switchToNext() {
        LlmRegistryDao.Route r = next().orElseThrow(() -> new IllegalStateException("no other LLM is configured"));
        target.use(client(r, variables, main));
        return "thinking with " + r.model() + " at " + Secrets.redactUrl(r.baseUrl()) + " (llm_registry " + r.id()
                + ") until a novel reply";
    }

    @Override
    public Optional<String> restore() {
        if (!target.useMain()) return Optional.empty();
        // the LLM it returns to is the one a person chose with /model, when they chose one (it wraps that choice)
        return Optional.of(target.model().equals(main.model()) ? "back to the configured LLM, " + main.model()
                : "back to " + target.model() + ", the LLM in use before the switch");
    }

    private Optional<LlmRegistryDao.Route> next() {
        return reachable(registry).stream().findFirst();
    }

    /**
     * The registry entries other than the configured LLM that a client can be made for (a provider this agent speaks,
     * or none, which means openai), in priority order.
     */
    public static List<LlmRegistryDao.Route> reachable(LlmRegistryDao registry) {
        return registry.routesExcept(LlmRegistryDao.MAIN_ID).stream().filter(r -> provider(r).isPresent()).toList();
    }

    private static Optional<Provider> provider(LlmRegistryDao.Route r) {
        if (r.provider().isBlank()) return Optional.of(Provider.OPENAI);
        return java.util.Arrays.stream(Provider.values()).filter(p -> p.configName().equals(r.provider())).findFirst();
    }

    /**
     * A client for entry {@code r}: its own provider, base URL and model, the key read from the variable the entry
     * names ("" when it names none or the variable is unset) and sent only there; sampling, streaming and timeouts as
     * the configured LLM's, and the options agent.toml gives the entry of that id.
     *
     * @throws IllegalArgumentException when the entry's base URL is not an http(s) URL
     */
    public static LlmClient client(LlmRegistryDao.Route r, java.util.function.Function<String, String> variables,
                            LlmSection main) {
        String key = r.apiKeyEnv().isBlank() ? null : variables.apply(r.apiKeyEnv());
        java.util.Map<String, Object> options = main.registry().stream().filter(e -> e.id().equals(r.id()))
                .findFirst().map(dev.hmpagent.config.RegistryEntry::options).orElse(java.util.Map.of());
        Provider provider = provider(r).orElseThrow(() -> new IllegalArgumentException("llm_registry entry " + r.id()
                + " names provider \"" + r.provider() + "\", which this agent does not speak"));
        return LlmChain.client(main.forRoute(provider, r.baseUrl(), r.model(), key, options));
    }
}
