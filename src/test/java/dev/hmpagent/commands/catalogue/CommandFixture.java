package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandBlockParser;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.commands.CommandRun;
import dev.hmpagent.commands.CommandRunner;
import dev.hmpagent.commands.ParsedReply;
import dev.hmpagent.context.SettingsBounds;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.context.AssembledPrompt;
import dev.hmpagent.context.ContextAssembler;
import dev.hmpagent.context.ContextSettings;
import dev.hmpagent.context.ContextSources;
import dev.hmpagent.context.LiveSettings;
import dev.hmpagent.safety.FailureFact;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A real store in a temp dir, the real registry and runner, and the assembler that builds what the LLM sees
 * next tick: the scaffold of the command family tests.
 */
public final class CommandFixture implements AutoCloseable {
    static final String NONCE = "0123abcd4567ef89";
    public final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");
    final ObjectMapper mapper = new ObjectMapper();
    public final List<FailureFact> failures = new ArrayList<>();
    public final CommandRegistry registry;
    public final Store store;
    final CommandRunner runner;
    public final ContextSettings defaults = new ContextSettings("tester", 3, 100_000, false, 20, NoteFilter.ALL, false);

    public CommandFixture(Path dir) {
        this(dir, CommandOptions.DEFAULTS);
    }

    public CommandFixture(Path dir, CommandOptions options) {
        registry = Catalogue.builtIn(options);
        store = Store.open(dir.resolve("agent.db"), clock);
        runner = new CommandRunner(registry, mapper, (tick, fact) -> failures.add(fact));
    }

    /** Runs a command block as the LLM would write it after "# Commands:". */
    public List<CommandRun> run(long tick, String block) {
        ParsedReply reply = new CommandBlockParser(mapper).parse("thought\n# Commands:\n" + block);
        return store.inTransaction(() -> runner.runAll(reply, new CommandContext(tick, "m", registry, store)));
    }

    /** Runs one command given as {@code type} and its args JSON. */
    public CommandRun one(long tick, String type, String args) {
        List<CommandRun> runs = run(tick, "{\"cmd_id\": \"c-" + tick + "\", \"type\": \"" + type + "\", \"args\": " + args + "}");
        return runs.get(0);
    }

    public ContextAssembler assembler(int pinCap, int perSourceCap) {
        return new ContextAssembler(defaults, registry.catalog(), () -> "m at http://x/v1", ContextSources.of(store), pinCap,
                perSourceCap, () -> NONCE);
    }

    /** The user message the LLM gets at {@code tick}, with agent.toml's settings and the default caps. */
    public String prompt(long tick) {
        return prompt(tick, defaults);
    }

    public String prompt(long tick, ContextSettings settings) {
        return assembler(ContextAssembler.DEFAULT_PIN_CAP, ContextAssembler.DEFAULT_PER_SOURCE_CAP)
                .assemble(tick, clock.instant(), settings).messages().get(1).content();
    }

    /** The prompt at {@code tick} with the settings the LLM stored applied, as the cycle will build it. */
    public AssembledPrompt livePrompt(long tick, SettingsBounds bounds) {
        LiveSettings live = new LiveSettings(defaults, bounds, new dev.hmpagent.store.SettingsDao(store));
        return assembler(ContextAssembler.DEFAULT_PIN_CAP, ContextAssembler.DEFAULT_PER_SOURCE_CAP)
                .assemble(tick, clock.instant(), live.snapshot());
    }

    /** The text of context {@code n} in {@code user} (from its header to the next). */
    static String context(String user, int n) {
        int start = user.indexOf("## Context " + n + " ");
        if (start < 0) throw new AssertionError("no context " + n + " in:\n" + user);
        int end = user.indexOf("\n## Context ", start + 1);
        return end < 0 ? user.substring(start) : user.substring(start, end);
    }

    @Override
    public void close() {
        store.close();
    }
}
