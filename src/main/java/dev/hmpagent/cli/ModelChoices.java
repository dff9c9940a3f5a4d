package dev.hmpagent.cli;

import dev.hmpagent.llm.SwitchableLlm;
import dev.hmpagent.runtime.RegistryRoutes;
import dev.hmpagent.config.LlmSection;
import dev.hmpagent.config.Secrets;
import dev.hmpagent.llm.FailoverLlm;
import dev.hmpagent.repl.ModelChoice;
import dev.hmpagent.store.LlmRegistryDao;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.ModelNames;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * /model over the cycle's LLM: the LLM agent.toml configures ({@code main}) and the {@code llm_registry} entries the
 * OpenAI-compatible client can reach. An LLM agent.toml configures (main, or an {@code [[llm.registry]]} entry) is
 * chosen within the failover: it thinks from the next call, and when it fails the failover goes on from it as from
 * any other. Another entry gets a client built for it alone (its base URL, its model, the key from the variable it
 * names), as the reflex's "switch LLM" builds it, without failover; either way a key never travels to another host.
 * {@code /model main} returns to the configured LLM.
 *
 * <p>{@code target} is the LLM handed to the cycle: the reflex's own switch wraps it, so the reflex's temporary
 * switch returns to the person's choice, not past it.
 */
public final class ModelChoices implements ModelChoice {
    private static final String MAIN = LlmRegistryDao.MAIN_ID;
    /** How long the endpoint's list of models may take; a slow endpoint lists nothing. */
    private static final Duration LISTING_TIMEOUT = Duration.ofSeconds(5);
    /** How long /model NAME waits for that list, to say whether the endpoint names the model. */
    private static final Duration LISTING_WAIT = Duration.ofSeconds(3);

    private final SwitchableLlm target;
    private final LlmRegistryDao registry;
    private final LlmSection main;
    private final Function<String, String> variables;
    /** One client per entry, rebuilt only when the entry's route changes. */
    private final Map<String, Built> clients = new HashMap<>();
    private volatile String chosen = MAIN;
    /** Whether {@link #chosen} is a model asked for by name at the configured endpoint (/model NAME). */
    private volatile boolean byName;
    /** The configured endpoint's list of models, asked for once, the first time it is wanted. */
    private CompletableFuture<List<String>> offered;
    private volatile String notOffered = "";

    private record Built(LlmRegistryDao.Route route, dev.hmpagent.llm.LlmClient client) { }

    /**
     * @param target    the cycle's LLM, wrapping the configured client
     * @param registry  on the REPL thread's own connection (it is read on each /model)
     * @param variables the environment by variable name (null when unset), where each entry's key is read
     */
    ModelChoices(SwitchableLlm target, LlmRegistryDao registry, LlmSection main, Function<String, String> variables) {
        this.target = Objects.requireNonNull(target, "target");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.main = Objects.requireNonNull(main, "main");
        this.variables = Objects.requireNonNull(variables, "variables");
    }

    @Override
    public String current() {
        String where = target.model() + " at " + target.endpoint();
        if (target.switched() && byName) return where + " (chosen by name with /model; /model main returns)";
        if (target.switched()) return where + " (llm_registry " + chosen + ", chosen with /model; /model main returns)";
        Optional<FailoverLlm> failover = target.failover();
        String id = failover.map(FailoverLlm::activeId).orElse(MAIN);
        Optional<String> next = failover.flatMap(FailoverLlm::chosenNext).filter(n -> !n.equals(id));
        String then = next.map(n -> "; " + n + " from the next call, as you chose").orElse("");
        if (id.equals(MAIN)) return where + " (main: the LLM agent.toml configures" + then + ")";
        return where + " (llm_registry " + id + (id.equals(chosen) ? ", chosen with /model; /model main returns"
                : ", which the failover moved to; the main LLM is probed and used again when it answers") + then + ")";
    }

    @Override
    public List<Choice> choices() {
        List<Choice> out = new ArrayList<>();
        out.add(new Choice(MAIN, "the LLM agent.toml configures", main.model(), Secrets.redactUrl(main.baseUrl())));
        Map<String, String> names = new HashMap<>();
        registry.list().forEach(e -> names.put(e.id(), e.name()));
        for (LlmRegistryDao.Route r : RegistryRoutes.reachable(registry)) {
            out.add(new Choice(r.id(), names.getOrDefault(r.id(), ""), r.model(), Secrets.redactUrl(r.baseUrl())));
        }
        return List.copyOf(out);
    }

    @Override
    public synchronized String use(String id) {
        Optional<FailoverLlm> failover = target.failover().filter(f -> f.routes(id));
        if (failover.isPresent()) return useWithin(failover.get(), id);
        if (id.equals(MAIN)) {
            boolean was = target.useMain();
            chosen = MAIN;
            byName = false;
            return (was ? "back to " : "already thinking with ") + "the configured LLM, " + target.model() + " at "
                    + target.endpoint();
        }
        LlmRegistryDao.Route route = RegistryRoutes.reachable(registry).stream().filter(r -> r.id().equals(id))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no llm_registry entry " + id
                        + " with a provider this agent speaks"));
        Built built = clients.get(id);
        if (built == null || !built.route().equals(route)) {
            built = new Built(route, RegistryRoutes.client(route, variables, main));
            clients.put(id, built);
        }
        target.use(built.client());
        chosen = id;
        byName = false;
        String unset = !route.apiKeyEnv().isBlank() && variables.apply(route.apiKeyEnv()) == null
                ? "; " + route.apiKeyEnv() + " is not set, so no key is sent" : "";
        return "thinking with " + route.model() + " at " + built.client().endpoint() + " (llm_registry " + id
                + ") from the next call" + unset + "; /model main returns";
    }

    /** An LLM agent.toml configures: chosen within the failover, which goes on from it when it fails. */
    private String useWithin(FailoverLlm f, String id) {
        Optional<String> out = f.outBecause(id);
        if (out.isPresent()) {
            return id + " is out because " + out.get() + ": still thinking with " + target.model() + " at "
                    + target.endpoint();
        }
        boolean was = target.useMain();
        chosen = id;
        byName = false;
        if (f.activeId().equals(id)) {
            f.choose(id);   // overrides a different choice not yet taken up, and changes nothing else
            return (was ? "back to " : "already thinking with ") + (id.equals(MAIN) ? "the configured LLM, " : "")
                    + target.model() + " at " + target.endpoint() + (id.equals(MAIN) ? "" : " (llm_registry " + id + ")");
        }
        f.choose(id);
        return "thinking with " + id + " from the next call; failover goes on from it when it fails"
                + (id.equals(MAIN) ? "" : "; /model main returns");
    }

    @Override
    public synchronized String useModel(String name) {
        String model = name.strip();
        if (model.isEmpty() || model.length() > 200 || model.chars().anyMatch(c -> Character.isWhitespace(c)
                || Character.isISOControl(c))) {
            throw new IllegalArgumentException("\"" + name + "\" cannot be a model's name (no spaces, at most 200"
                    + " characters)");
        }
        Optional<LlmRegistryDao.Entry> entry = registry.list().stream().filter(e -> e.id().equals(model)).findFirst();
        if (entry.isPresent()) {   // an entry of that id this agent cannot reach: not a model to ask main's endpoint for
            throw new IllegalArgumentException("llm_registry entry " + model + " names provider \""
                    + entry.get().provider() + "\", which this agent does not speak, or no base URL and model");
        }
        LlmClient client = RegistryRoutes.byName(main, model);
        target.use(client);
        chosen = model;
        byName = true;
        List<String> listed = offered(LISTING_WAIT);
        String unlisted = listed.isEmpty() || listed.contains(model) ? ""
                : "; the endpoint does not list it (it lists " + listed.size() + ": /model shows them)";
        return "thinking with " + model + " at " + client.endpoint() + " from the next call" + unlisted
                + "; /model main returns";
    }

    @Override
    public List<String> offered(Duration wait) {
        CompletableFuture<List<String>> list;
        synchronized (this) {
            if (offered == null) offered = CompletableFuture.supplyAsync(this::fetchOffered);
            list = offered;
        }
        try {
            return list.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (ExecutionException e) {
            return List.of();
        }
    }

    @Override
    public String notOffered() {
        return notOffered;
    }

    private List<String> fetchOffered() {
        ModelNames.Api api = switch (main.provider()) {
            case OPENAI -> ModelNames.Api.OPENAI;
            case OLLAMA -> ModelNames.Api.OLLAMA;
            case ANTHROPIC -> ModelNames.Api.ANTHROPIC;
        };
        try {
            return ModelNames.fetch(api, main.baseUrl(), main.apiKey(), LISTING_TIMEOUT);
        } catch (IOException | RuntimeException e) {
            notOffered = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return List.of();
        }
    }
}
