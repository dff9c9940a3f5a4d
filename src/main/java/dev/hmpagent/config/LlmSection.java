package dev.hmpagent.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The [llm] section: which LLM to talk to and how, the others it may fail over to, and what models cost.
 *
 * @param provider         the wire protocol of the main LLM
 * @param apiKeyEnv        the variable its key is read from when agent.toml gives none ("" = the provider's own)
 * @param presencePenalty  presence penalty sent with each main-cycle request; 0 sends none. The anti-stagnation
 *                         reflex raises it while the agent loops and returns it here after a novel reply
 * @param frequencyPenalty frequency penalty, the same way
 * @param options          model options (provider ollama)
 * @param failoverAfter    when an unreachable LLM is given up for the next registry entry
 * @param registry         the other LLMs, by priority
 * @param prices           what models cost, for the cost figures
 * @param commands         how the main LLM is asked for commands (a block, or native tool calls)
 */
public record LlmSection(
        Provider provider,
        String baseUrl,
        String model,
        String apiKeyEnv,
        String apiKey,
        double temperature,
        double presencePenalty,
        double frequencyPenalty,
        int maxTokens,
        boolean stream,
        Duration connectTimeout,
        Duration readTimeout,
        Duration maxBackoff,
        Duration callDeadline,
        Duration giveUp,
        Map<String, Object> options,
        FailoverAfter failoverAfter,
        List<RegistryEntry> registry,
        List<ModelPrice> prices,
        CommandsMode commands) {

    /** When nothing says otherwise, the LLM is given up after this many failures in a row. */
    public static final FailoverAfter DEFAULT_FAILOVER = FailoverAfter.failures(3);

    public LlmSection {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(apiKeyEnv, "apiKeyEnv");
        Objects.requireNonNull(apiKey, "apiKey");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(readTimeout, "readTimeout");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        Objects.requireNonNull(callDeadline, "callDeadline");
        Objects.requireNonNull(giveUp, "giveUp");
        options = Map.copyOf(options);
        Objects.requireNonNull(failoverAfter, "failoverAfter");
        registry = List.copyOf(registry);
        prices = List.copyOf(prices);
        Objects.requireNonNull(commands, "commands");
    }

    /** A section whose LLM takes command blocks. */
    public LlmSection(Provider provider, String baseUrl, String model, String apiKeyEnv, String apiKey,
                      double temperature, double presencePenalty, double frequencyPenalty, int maxTokens,
                      boolean stream, Duration connectTimeout, Duration readTimeout, Duration maxBackoff,
                      Duration callDeadline, Duration giveUp, Map<String, Object> options, FailoverAfter failoverAfter,
                      List<RegistryEntry> registry, List<ModelPrice> prices) {
        this(provider, baseUrl, model, apiKeyEnv, apiKey, temperature, presencePenalty, frequencyPenalty, maxTokens,
                stream, connectTimeout, readTimeout, maxBackoff, callDeadline, giveUp, options, failoverAfter,
                registry, prices, CommandsMode.BLOCK);
    }

    /** An OpenAI-compatible LLM with no registry and no prices: for code written before those keys existed. */
    public LlmSection(String baseUrl, String model, String apiKey, double temperature, double presencePenalty,
                      double frequencyPenalty, int maxTokens, boolean stream, Duration connectTimeout,
                      Duration readTimeout, Duration maxBackoff, Duration callDeadline, Duration giveUp) {
        this(Provider.OPENAI, baseUrl, model, "", apiKey, temperature, presencePenalty, frequencyPenalty, maxTokens,
                stream, connectTimeout, readTimeout, maxBackoff, callDeadline, giveUp, Map.of(), DEFAULT_FAILOVER,
                List.of(), List.of());
    }

    /** A section with both penalties at 0 (none sent): for code written before the keys existed. */
    public LlmSection(String baseUrl, String model, String apiKey, double temperature, int maxTokens, boolean stream,
                      Duration connectTimeout, Duration readTimeout, Duration maxBackoff, Duration callDeadline,
                      Duration giveUp) {
        this(baseUrl, model, apiKey, temperature, 0, 0, maxTokens, stream, connectTimeout, readTimeout, maxBackoff,
                callDeadline, giveUp);
    }

    /** The same section with {@code entries} as its registry. */
    public LlmSection withRegistry(List<RegistryEntry> entries) {
        return new LlmSection(provider, baseUrl, model, apiKeyEnv, apiKey, temperature, presencePenalty,
                frequencyPenalty, maxTokens, stream, connectTimeout, readTimeout, maxBackoff, callDeadline, giveUp,
                options, failoverAfter, entries, prices, commands);
    }

    /**
     * The section of another LLM (a registry entry): its provider, base URL, model, key and options, with this
     * section's sampling, timeouts and streaming; no registry of its own.
     */
    public LlmSection forRoute(Provider otherProvider, String otherBaseUrl, String otherModel, String key,
                               Map<String, Object> otherOptions) {
        return forRoute(otherProvider, otherBaseUrl, otherModel, key, otherOptions, commands);
    }

    /** As {@link #forRoute(Provider, String, String, String, Map)}, asking for commands the other LLM's way. */
    public LlmSection forRoute(Provider otherProvider, String otherBaseUrl, String otherModel, String key,
                               Map<String, Object> otherOptions, CommandsMode otherCommands) {
        return new LlmSection(otherProvider, otherBaseUrl, otherModel, "", key == null ? "" : key, temperature,
                presencePenalty, frequencyPenalty, maxTokens, stream, connectTimeout, readTimeout, maxBackoff,
                callDeadline, giveUp, otherOptions, failoverAfter, List.of(), prices, otherCommands);
    }

    /** The same section failing over after {@code after}. */
    public LlmSection withFailoverAfter(FailoverAfter after) {
        return new LlmSection(provider, baseUrl, model, apiKeyEnv, apiKey, temperature, presencePenalty,
                frequencyPenalty, maxTokens, stream, connectTimeout, readTimeout, maxBackoff, callDeadline, giveUp,
                options, after, registry, prices, commands);
    }

    /** True when an API key is configured (it may legitimately be empty for local servers). */
    public boolean hasApiKey() {
        return !apiKey.isEmpty();
    }

    /** The variable the main LLM's key is read from: llm.api_key_env, else the provider's own. */
    public String keyVariable() {
        return apiKeyEnv.isBlank() ? provider.keyVariable() : apiKeyEnv.strip();
    }

    /** The price of {@code model}, when llm.prices gives one. */
    public Optional<ModelPrice> price(String model) {
        return prices.stream().filter(p -> p.model().equals(model)).findFirst();
    }

    /** llm.registry's tables as records, with their defaults filled in (file order gives the priority). */
    static List<RegistryEntry> registry(List<Map<String, Object>> tables) {
        List<RegistryEntry> out = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            Map<String, Object> t = tables.get(i);
            Provider provider = Provider.fromConfigName((String) t.getOrDefault("provider", "openai"));
            boolean ownUrl = t.containsKey("base_url");
            @SuppressWarnings("unchecked")
            Map<String, Object> options = (Map<String, Object>) t.getOrDefault("options", Map.of());
            out.add(new RegistryEntry((String) t.get("id"), provider,
                    ownUrl ? (String) t.get("base_url") : provider.defaultBaseUrl(), (String) t.get("model"),
                    (String) t.getOrDefault("api_key_env", ownUrl ? "" : provider.keyVariable()),
                    Math.toIntExact((Long) t.getOrDefault("priority", (long) (i + 1))), options,
                    (String) t.getOrDefault("description", ""),
                    CommandsMode.fromConfigName((String) t.getOrDefault("commands", "block"))));
        }
        return List.copyOf(out);
    }

    /** llm.prices' tables as records; the cached-input price is the input price when not given. */
    static List<ModelPrice> prices(List<Map<String, Object>> tables) {
        return tables.stream().map(t -> new ModelPrice((String) t.get("model"), (Double) t.get("input"),
                (Double) t.getOrDefault("cached_input", t.get("input")), (Double) t.get("output"))).toList();
    }

    /** The registry as agent config shows it: every field, defaults filled in. */
    public List<Map<String, Object>> registryTables() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (RegistryEntry e : registry) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("id", e.id());
            t.put("provider", e.provider().configName());
            t.put("base_url", e.baseUrl());
            t.put("model", e.model());
            t.put("api_key_env", e.apiKeyEnv());
            t.put("priority", (long) e.priority());
            if (!e.options().isEmpty()) t.put("options", e.options());
            if (!e.description().isEmpty()) t.put("description", e.description());
            if (e.commands() != CommandsMode.BLOCK) t.put("commands", e.commands().configName());
            out.add(t);
        }
        return out;
    }

    /** The prices as agent config shows them. */
    public List<Map<String, Object>> priceTables() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (ModelPrice p : prices) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("model", p.model());
            t.put("input", p.input());
            t.put("cached_input", p.cachedInput());
            t.put("output", p.output());
            out.add(t);
        }
        return out;
    }

    /** Like the generated form, but the API key is masked. */
    @Override
    public String toString() {
        return "LlmSection[provider=" + provider.configName()
                + ", baseUrl=" + baseUrl
                + ", model=" + model
                + ", apiKeyEnv=" + apiKeyEnv
                + ", apiKey=" + Secrets.mask(apiKey)
                + ", temperature=" + temperature
                + ", presencePenalty=" + presencePenalty
                + ", frequencyPenalty=" + frequencyPenalty
                + ", maxTokens=" + maxTokens
                + ", stream=" + stream
                + ", connectTimeout=" + connectTimeout
                + ", readTimeout=" + readTimeout
                + ", maxBackoff=" + maxBackoff
                + ", callDeadline=" + callDeadline
                + ", giveUp=" + giveUp
                + ", options=" + options
                + ", failoverAfter=" + failoverAfter
                + ", registry=" + registry
                + ", prices=" + prices
                + ", commands=" + commands.configName() + "]";
    }
}
