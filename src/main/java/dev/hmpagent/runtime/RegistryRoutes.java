package dev.hmpagent.runtime;

import dev.hmpagent.config.CommandsMode;
import dev.hmpagent.config.LlmSection;
import dev.hmpagent.config.Provider;
import dev.hmpagent.config.RegistryEntry;
import dev.hmpagent.config.Secrets;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.OtherLlms;
import dev.hmpagent.store.LlmRegistryDao;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/** {@link OtherLlms} over the {@code llm_registry} table and agent.toml's llm section. */
public final class RegistryRoutes implements OtherLlms {
    private final LlmRegistryDao registry;
    private final Function<String, String> variables;
    private final LlmSection main;

    /** @param variables the environment by variable name (null when unset), where each entry's key is read */
    public RegistryRoutes(LlmRegistryDao registry, Function<String, String> variables, LlmSection main) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.variables = Objects.requireNonNull(variables, "variables");
        this.main = Objects.requireNonNull(main, "main");
    }

    @Override
    public List<Entry> reachable() {
        return reachable(registry).stream().<Entry>map(RouteEntry::new).toList();
    }

    private final class RouteEntry implements Entry {
        private final LlmRegistryDao.Route route;

        RouteEntry(LlmRegistryDao.Route route) {
            this.route = route;
        }

        @Override
        public String id() { return route.id(); }

        @Override
        public String model() { return route.model(); }

        @Override
        public String shownUrl() { return Secrets.redactUrl(route.baseUrl()); }

        @Override
        public LlmClient client() { return RegistryRoutes.client(route, variables, main); }
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
        return Arrays.stream(Provider.values()).filter(p -> p.configName().equals(r.provider())).findFirst();
    }

    /**
     * A client for entry {@code r}: its own provider, base URL and model, the key read from the variable the entry
     * names ("" when it names none or the variable is unset) and sent only there; sampling, streaming and timeouts as
     * the configured LLM's, and the options agent.toml gives the entry of that id.
     *
     * @throws IllegalArgumentException when the entry's base URL is not an http(s) URL
     */
    public static LlmClient client(LlmRegistryDao.Route r, Function<String, String> variables, LlmSection main) {
        String key = r.apiKeyEnv().isBlank() ? null : variables.apply(r.apiKeyEnv());
        Optional<RegistryEntry> entry = main.registry().stream().filter(e -> e.id().equals(r.id())).findFirst();
        Map<String, Object> options = entry.map(RegistryEntry::options).orElse(Map.of());
        CommandsMode commands = entry.map(RegistryEntry::commands).orElse(CommandsMode.BLOCK);
        Provider provider = provider(r).orElseThrow(() -> new IllegalArgumentException("llm_registry entry " + r.id()
                + " names provider \"" + r.provider() + "\", which this agent does not speak"));
        return LlmChain.commands(LlmChain.client(main.forRoute(provider, r.baseUrl(), r.model(), key, options,
                commands)), commands, LlmChain.entrySetting(r.id()));
    }

    /**
     * A client for model {@code model} at the configured LLM's endpoint: its provider, base URL, key, options and
     * commands mode, another model (/model with a name no entry has).
     *
     * @throws IllegalArgumentException when the configured base URL is not an http(s) URL
     */
    public static LlmClient byName(LlmSection main, String model) {
        return LlmChain.commands(LlmChain.client(main.forRoute(main.provider(), main.baseUrl(), model, main.apiKey(),
                main.options(), main.commands())), main.commands(), "llm.commands = \"block\"");
    }
}
