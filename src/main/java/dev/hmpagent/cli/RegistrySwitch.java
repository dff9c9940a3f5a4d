package dev.hmpagent.cli;

import dev.hmpagent.config.LlmSection;
import dev.hmpagent.config.Secrets;
import dev.hmpagent.cycle.StagnationReflex;
import dev.hmpagent.llm.openai.OpenAiClient;
import dev.hmpagent.llm.openai.OpenAiSettings;
import dev.hmpagent.store.LlmRegistryDao;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The reflex's "switch LLM": the next {@code llm_registry} entry by priority (one the OpenAI-compatible client can
 * reach: provider {@code openai} or unnamed, a base URL and a model) thinks until a novel reply, then the configured
 * LLM again. The entry's key is read from the variable it names and sent only to its own base URL.
 */
final class RegistrySwitch implements StagnationReflex.ModelSwitch {
    private final LlmRegistryDao registry;
    private final java.util.function.Function<String, String> variables;
    private final LlmSection main;
    private final SwitchableLlm target;

    /** @param variables the environment by variable name (null when unset), where each entry's key is read */
    RegistrySwitch(LlmRegistryDao registry, java.util.function.Function<String, String> variables, LlmSection main,
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
        String key = r.apiKeyEnv().isBlank() ? null : variables.apply(r.apiKeyEnv());
        if (key == null) key = "";
        target.use(new OpenAiClient(new OpenAiSettings(r.baseUrl(), key, r.model(), main.stream(),
                main.connectTimeout(), main.readTimeout(), main.callDeadline())));
        return "thinking with " + r.model() + " at " + Secrets.redactUrl(r.baseUrl()) + " (llm_registry " + r.id()
                + ") until a novel reply";
    }

    @Override
    public Optional<String> restore() {
        return target.useMain() ? Optional.of("back to the configured LLM, " + main.model()) : Optional.empty();
    }

    private Optional<LlmRegistryDao.Route> next() {
        List<LlmRegistryDao.Route> routes = registry.routesExcept(LlmRegistryDao.MAIN_ID);
        return routes.stream().filter(r -> r.provider().isEmpty() || r.provider().equals("openai")).findFirst();
    }
}
