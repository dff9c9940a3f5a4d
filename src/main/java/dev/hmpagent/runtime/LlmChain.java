package dev.hmpagent.runtime;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.CommandsMode;
import dev.hmpagent.config.LlmSection;
import dev.hmpagent.config.RegistryEntry;
import dev.hmpagent.config.Secrets;
import dev.hmpagent.config.StagnationSection;
import dev.hmpagent.context.ContextAssembler;
import dev.hmpagent.llm.Backoff;
import dev.hmpagent.llm.CommandsByTools;
import dev.hmpagent.llm.ContextSize;
import dev.hmpagent.llm.FailoverLlm;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.SwitchableLlm;
import dev.hmpagent.llm.anthropic.AnthropicClient;
import dev.hmpagent.llm.anthropic.AnthropicSettings;
import dev.hmpagent.llm.ollama.OllamaClient;
import dev.hmpagent.llm.ollama.OllamaSettings;
import dev.hmpagent.llm.openai.OpenAiClient;
import dev.hmpagent.llm.openai.OpenAiSettings;
import dev.hmpagent.llm.wire.BaseUrl;
import dev.hmpagent.stagnation.LlmComparator;
import dev.hmpagent.store.LlmRegistryDao;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The one place the cycle's LLM is built from the configuration, layer by layer: each provider's client (its base
 * URL, key, model, streaming, timeouts), the failover over the main LLM and the llm.registry entries (following the
 * LLM's own choice), the person's choice ({@code /model}) around it, and the reflex's "switch LLM" around that. The
 * cycle meters the outermost one ({@code llm.MeteredLlm}).
 */
public final class LlmChain {
    /** The first probe of a given-up LLM comes this long after it was given up; later ones back off to 5 minutes. */
    static final Duration FIRST_PROBE = Duration.ofSeconds(15);

    /** How long the model's server may take to say its context window (at the first prompt, not at start). */
    static final Duration CONTEXT_SIZE_TIMEOUT = Duration.ofSeconds(3);

    /**
     * The real clients, and the context window their servers say: llama.cpp's {@code /props} behind an OpenAI-compatible
     * base URL, Ollama's {@code /api/show} (or llm.options num_ctx); Anthropic's API does not say.
     */
    public static final Launch.LlmFactory REAL = new Launch.LlmFactory() {
        @Override
        public LlmClient create(LlmSection llm) {
            return client(llm);
        }

        @Override
        public java.util.OptionalInt contextWindow(LlmSection llm) {
            return switch (llm.provider()) {
                case OPENAI -> ContextSize.of(ContextSize.Api.LLAMA_CPP, llm.baseUrl(), llm.model(), llm.apiKey(),
                        llm.options(), CONTEXT_SIZE_TIMEOUT);
                case OLLAMA -> ContextSize.of(ContextSize.Api.OLLAMA, llm.baseUrl(), llm.model(), llm.apiKey(),
                        llm.options(), CONTEXT_SIZE_TIMEOUT);
                case ANTHROPIC -> java.util.OptionalInt.empty();
            };
        }
    };

    private LlmChain() { }

    /** The client of {@code llm}'s provider, with its base URL, key, model, streaming, timeouts and options. */
    public static LlmClient client(LlmSection llm) {
        return switch (llm.provider()) {
            case OPENAI -> new OpenAiClient(new OpenAiSettings(llm.baseUrl(), llm.apiKey(), llm.model(), llm.stream(),
                    llm.connectTimeout(), llm.readTimeout(), llm.callDeadline()));
            case OLLAMA -> new OllamaClient(new OllamaSettings(llm.baseUrl(), llm.model(), llm.stream(),
                    llm.connectTimeout(), llm.readTimeout(), llm.callDeadline(), llm.options(), "", llm.apiKey()));
            case ANTHROPIC -> new AnthropicClient(new AnthropicSettings(llm.baseUrl(), llm.apiKey(), llm.model(),
                    llm.stream(), llm.connectTimeout(), llm.readTimeout(), llm.callDeadline()));
        };
    }

    /**
     * What a running agent thinks with: the {@link #failover} following the LLM's own choice ({@code selected}, read
     * before each call), inside the person's choice ({@code /model}), which the reflex's switch will wrap.
     */
    static SwitchableLlm chosen(LlmSection llm, Launch.LlmFactory factory, Function<String, String> variables,
                                java.util.function.LongSupplier nanos, Supplier<Optional<String>> selected) {
        return new SwitchableLlm(failover(llm, factory, variables, nanos).following(selected));
    }

    /** The reflex's "switch LLM" around the LLM the cycle is given: it returns to that one, never past it. */
    static SwitchableLlm reflexSwitch(LlmClient given) {
        return new SwitchableLlm(given);
    }

    /**
     * The configured LLM, failing over to the llm.registry entries by priority (and file order) when it is
     * unreachable, each entry a client of its own with the key of the variable it names.
     */
    public static FailoverLlm failover(LlmSection llm, Launch.LlmFactory factory, Function<String, String> variables,
                                       java.util.function.LongSupplier nanos) {
        List<FailoverLlm.Route> routes = new ArrayList<>();
        routes.add(new FailoverLlm.Route(LlmRegistryDao.MAIN_ID, commands(factory.create(llm), llm.commands(),
                "llm.commands = \"block\"")));
        llm.registry().stream().sorted(Comparator.comparingInt(RegistryEntry::priority))
                .forEach(e -> routes.add(new FailoverLlm.Route(e.id(), commands(factory.create(entrySection(llm, e,
                        variables)), e.commands(), entrySetting(e.id())))));
        return new FailoverLlm(routes, llm.failoverAfter()::reached, new Backoff(FIRST_PROBE, Duration.ofMinutes(5)),
                nanos).retargeting((request, was, now) -> request.withMessages(ContextAssembler.retargeted(
                        request.messages(), ContextAssembler.describeLlm(was.model(), was.endpoint()),
                        ContextAssembler.describeLlm(now.model(), now.endpoint()))));
    }

    /** {@code client} asked for commands the entry's way ({@code setting} is where a person turns tools or JSON off). */
    static LlmClient commands(LlmClient client, CommandsMode mode, String setting) {
        return new CommandsByTools(client, switch (mode) {
            case BLOCK -> CommandsByTools.Form.BLOCK;
            case TOOLS -> CommandsByTools.Form.TOOLS;
            case JSON -> CommandsByTools.Form.JSON;
        }, setting);
    }

    /** Where a person turns tools off for llm.registry entry {@code id}. */
    static String entrySetting(String id) {
        return "commands = \"block\" in the llm.registry entry \"" + id + "\"";
    }

    /** Whether any LLM the configuration names takes commands as native tool calls. */
    public static boolean anyTools(LlmSection llm) {
        return any(llm, CommandsMode.TOOLS);
    }

    /** Whether any LLM the configuration names takes commands as a JSON reply. */
    public static boolean anyJson(LlmSection llm) {
        return any(llm, CommandsMode.JSON);
    }

    private static boolean any(LlmSection llm, CommandsMode mode) {
        return llm.commands() == mode || llm.registry().stream().anyMatch(e -> e.commands() == mode);
    }

    /** The section of registry entry {@code e}: its own route, and the key of the variable it names ("" when none). */
    static LlmSection entrySection(LlmSection main, RegistryEntry e, Function<String, String> variables) {
        String key = e.apiKeyEnv().isBlank() ? "" : variables.apply(e.apiKeyEnv());
        return main.forRoute(e.provider(), e.baseUrl(), e.model(), key, e.options(), e.commands());
    }

    /**
     * The client step 5's comparison asks: the main one when {@code stagnation.model} is empty (or names the main
     * model), else one for that model on the same endpoint with the same key (a key never goes to another host).
     */
    static LlmClient comparisonClient(AgentConfig config, LlmClient main) {
        StagnationSection s = config.stagnation();
        if (s.model().isBlank() || s.model().equals(config.llm().model())) return main;
        LlmSection llm = config.llm();
        return client(llm.forRoute(llm.provider(), llm.baseUrl(), s.model(), llm.apiKey(), llm.options()));
    }

    /**
     * How step 5 puts its question: after the main request, when it asks the main model on a server of the person's
     * own (loopback or the local network), whose one prompt cache a short question would evict (issue 35); alone
     * otherwise, where a hosted API's prefix cache is not one slot and the whole prompt again would cost its tokens.
     */
    static LlmComparator.Form judgeForm(AgentConfig config) {
        String judge = config.stagnation().model();
        boolean mainModel = judge.isBlank() || judge.equals(config.llm().model());
        try {
            return mainModel && BaseUrl.parse(config.llm().baseUrl()).local()
                    ? LlmComparator.Form.SHARED : LlmComparator.Form.SHORT;
        } catch (IllegalArgumentException e) {
            return LlmComparator.Form.SHORT;   // not a URL: the main call says so
        }
    }

    /**
     * The LLMs the configuration names, one "provider model at base URL" per line (no key, credentials masked): what a
     * quota stop remembers, and what a start compares with it.
     */
    static String llmLines(LlmSection llm) {
        StringBuilder out = new StringBuilder(llm.provider().configName() + " " + llm.model() + " at "
                + Secrets.redactUrl(llm.baseUrl()));
        llm.registry().forEach(e -> out.append('\n').append(e.provider().configName()).append(' ').append(e.model())
                .append(" at ").append(Secrets.redactUrl(e.baseUrl())));
        return out.toString();
    }
}
