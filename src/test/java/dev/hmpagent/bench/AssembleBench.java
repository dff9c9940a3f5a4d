package dev.hmpagent.bench;

import dev.hmpagent.commands.catalogue.Catalogue;
import dev.hmpagent.context.AssembledPrompt;
import dev.hmpagent.context.ContextAssembler;
import dev.hmpagent.context.ContextSettings;
import dev.hmpagent.context.ContextSources;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@code scripts/bench assemble}: the time of one {@link ContextAssembler#assemble} with a full context (every context
 * holds more rows than it shows, each as long as its clip allows: {@link FullContext}) at the default budget (6,000
 * tokens, history K 5, 20 notes): the prompt the tick thread builds before every call when an agent has been busy.
 * The queries are part of it (a real SQLite file); nothing is written, so every call builds the same prompt.
 *
 * <p>Run from the shaded jar and the test classes: {@code java -cp target/hmp-agent.jar:target/test-classes
 * dev.hmpagent.bench.AssembleBench [CALLS] [DIR]}.
 */
public final class AssembleBench {
    private AssembleBench() { }

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("assemble-bench");
        MutableClock clock = MutableClock.at("2026-11-25T09:00:00Z");
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            FullContext.fill(store, 14);
            ContextSettings settings = new ContextSettings("bench", 5, 6_000, false, 20, NoteFilter.ALL, false);
            ContextAssembler assembler = new ContextAssembler(settings, Catalogue.builtIn().catalog(),
                    () -> "m at http://127.0.0.1/v1", ContextSources.of(store), ContextAssembler.DEFAULT_PIN_CAP,
                    ContextAssembler.DEFAULT_PER_SOURCE_CAP, ContextAssembler.secureNonces());
            AssembledPrompt prompt = null;
            for (int i = 0; i < calls; i++) prompt = assembler.assemble(i + 1, clock.instant());   // warm-up
            long[] nanos = new long[calls];
            long[] cpu = new long[calls];
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            for (int i = 0; i < calls; i++) {
                long c0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                prompt = assembler.assemble(calls + i + 1, clock.instant());
                nanos[i] = System.nanoTime() - t0;
                cpu[i] = threads.getCurrentThreadCpuTime() - c0;
            }
            Arrays.sort(nanos);
            Arrays.sort(cpu);
            System.out.printf(Locale.ROOT, "assemble() with a full context at the default budget, %d calls after %d"
                    + " warm-up: wall p50 %.2f ms, p90 %.2f ms; the thread's CPU p50 %.2f ms, p90 %.2f ms (prompt %d"
                    + " tokens, items left out per context %s)%n", calls, calls, nanos[calls / 2] / 1e6,
                    nanos[calls * 9 / 10] / 1e6, cpu[calls / 2] / 1e6, cpu[calls * 9 / 10] / 1e6,
                    prompt.estimatedTokens(), new java.util.TreeMap<>(prompt.trimmed()));
        }
    }
}
