package dev.hmpagent.commands.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandArgException;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.commands.ExternalCommand;
import dev.hmpagent.commands.Param;
import dev.hmpagent.commands.Signature;
import dev.hmpagent.policy.ControlSurface;
import dev.hmpagent.policy.FileRoots;
import dev.hmpagent.process.ProcessRunner;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every signature the registry shows (context 0, help, the tools' JSON Schemas) against what its handler accepts, for
 * every command the agent registers: each handler runs with the arguments its signature and example give, on a real
 * file, its args object recording every name the handler reads. The names read are the signature's; leaving out a
 * required argument is refused naming it, leaving out an optional one is not; the example uses the signature's names
 * and types and holds every required argument.
 */
class SignaturesMatchHandlersTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Names a handler looks for only to refuse them: an account never holds a secret. */
    private static final Map<String, Set<String>> REFUSED = Map.of(
            "account_add", Set.of("password", "secret", "token", "api_key", "key"),
            "account_update", Set.of("password", "secret", "token", "api_key", "key"));
    /** Values for the words a handler checks, where the example leaves the argument out. */
    private static final Map<String, String> WORDS = Map.of("language", "python", "status", "online",
            "base_url", "https://example.org");

    @TempDir Path dir;
    private Store store;
    private ProcessRunner processes;
    private CommandRegistry registry;

    @BeforeEach
    void open() throws IOException {
        MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");
        store = Store.open(dir.resolve("agent.db"), clock);
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(work.resolve("out.txt"), "x");
        FileRoots roots = new FileRoots(List.of(work), ControlSurface.forDatabase(dir.resolve("agent.db"), List.of()), work);
        processes = new ProcessRunner(2, 4096, clock, Map.of("PATH", "/usr/bin:/bin"));
        registry = Catalogue.all(CommandOptions.DEFAULTS, CatalogueAllTest.tools(processes, roots, clock,
                dir.resolve("scripts"), new CatalogueAllTest.Servers(false))).registry();
    }

    @AfterEach
    void close() {
        processes.stopAll("test over");
        store.close();
    }

    @Test
    void every_example_uses_the_signatures_names_and_types_and_holds_its_required_arguments() {
        for (CommandHandler h : registry.all()) {
            Signature s = h.signature();
            ObjectNode example = example(h);
            List<String> names = s.params().stream().map(Param::name).toList();
            assertThat(names).as(h.type() + ": the example's names are the signature's").containsAll(fieldNames(example));
            for (Param p : s.params()) {
                if (p.required()) assertThat(example.has(p.name())).as(h.type() + " example holds " + p.name()).isTrue();
                if (example.has(p.name())) {
                    assertThat(fits(p.kind(), example.get(p.name()))).as(h.type() + "." + p.name() + " is a " + p.kind()).isTrue();
                }
            }
        }
    }

    @Test
    void every_handler_reads_only_its_signatures_names_and_requires_exactly_its_required_ones() {
        List<String> wrong = new ArrayList<>();
        for (CommandHandler h : registry.all()) {
            Signature s = h.signature();
            ObjectNode full = full(h);
            Run all = run(h, full);
            if (all.refused().isPresent()) wrong.add(h.type() + ": refused its own full arguments: " + all.refused().get());
            checkRead(h, all, wrong);
            for (Param p : s.params()) {
                ObjectNode without = full.deepCopy();
                without.remove(p.name());
                Run r = run(h, without);
                checkRead(h, r, wrong);
                boolean refusedForIt = r.refused().filter(m -> m.contains("args." + p.name())).isPresent();
                if (p.required() && !refusedForIt) {
                    wrong.add(h.type() + ": runs without its required " + p.name() + " (" + r.refused().orElse("accepted") + ")");
                }
                if (!p.required() && r.refused().filter(m -> m.contains("args." + p.name() + " is required")).isPresent()) {
                    wrong.add(h.type() + ": needs its optional " + p.name() + ": " + r.refused().get());
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    private void checkRead(CommandHandler h, Run run, List<String> wrong) {
        Set<String> accepted = new LinkedHashSet<>();
        h.signature().params().forEach(p -> {
            accepted.add(p.name());
            accepted.addAll(p.aliases());
        });
        accepted.addAll(REFUSED.getOrDefault(h.type(), Set.of()));
        Set<String> unknown = new LinkedHashSet<>(run.read());
        unknown.removeAll(accepted);
        if (!unknown.isEmpty()) wrong.add(h.type() + ": reads " + unknown + ", not in " + h.signature().line(h.type()));
    }

    /** What the handler read, and the refusal of its arguments when there was one. */
    private record Run(Set<String> read, Optional<String> refused) { }

    private Run run(CommandHandler h, ObjectNode given) {
        Recording args = new Recording(new LinkedHashSet<>());
        args.setAll(given);
        CommandContext ctx = new CommandContext(1, "m", registry, store);
        try {
            store.inTransaction(() -> h instanceof ExternalCommand e
                    ? e.start(new Args(h.type(), h.argsExample(), args), ctx, 1, outcome -> { })
                    : Optional.of(h.execute(new Args(h.type(), h.argsExample(), args), ctx)));
            return new Run(args.read, Optional.empty());
        } catch (CommandArgException e) {
            return new Run(args.read, Optional.of(e.getMessage()));
        }
    }

    /** The example's values, and a value of the declared type for every argument the example leaves out. */
    private static ObjectNode full(CommandHandler h) {
        ObjectNode out = example(h);
        for (Param p : h.signature().params()) {
            if (out.has(p.name())) continue;
            switch (p.kind()) {
                case INTEGER -> out.put(p.name(), 1);
                case NUMBER -> out.put(p.name(), 1.5);
                case BOOLEAN -> out.put(p.name(), true);
                case LIST -> out.putArray(p.name()).add("x");
                case OBJECT -> out.putObject(p.name());
                default -> out.put(p.name(), WORDS.getOrDefault(p.name(), "x"));
            }
        }
        return out;
    }

    private static ObjectNode example(CommandHandler h) {
        try {
            return (ObjectNode) JSON.readTree(h.argsExample());
        } catch (IOException e) {
            throw new AssertionError(h.type() + ": the example is not JSON", e);
        }
    }

    private static List<String> fieldNames(ObjectNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** A string argument also takes a number (Args reads it as its text). */
    private static boolean fits(Param.Kind kind, JsonNode v) {
        return switch (kind) {
            case STRING -> v.isTextual() || v.isNumber();
            case INTEGER -> v.isIntegralNumber();
            case NUMBER -> v.isNumber();
            case BOOLEAN -> v.isBoolean();
            case LIST -> v.isArray();
            case OBJECT -> v.isObject();
            case ANY -> true;
        };
    }

    /** An args object that notes every top-level name a handler looks up, in a copy too. */
    private static final class Recording extends ObjectNode {
        final Set<String> read;

        Recording(Set<String> read) {
            super(JsonNodeFactory.instance);
            this.read = read;
        }

        @Override
        public JsonNode get(String name) {
            read.add(name);
            return super.get(name);
        }

        @Override
        public JsonNode path(String name) {
            read.add(name);
            return super.path(name);
        }

        @Override
        public ObjectNode deepCopy() {
            Recording copy = new Recording(read);
            fields().forEachRemaining(f -> copy.set(f.getKey(), f.getValue().deepCopy()));
            return copy;
        }
    }
}
