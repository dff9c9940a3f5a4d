package dev.hmpagent.bench;

import dev.hmpagent.cli.SelfControlRun;
import dev.hmpagent.cli.SelfControlScenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code scripts/bench self-control [NAME…]}: issue 23's scenario suite as a table, each scenario through a real
 * headless agent ({@code agent run --hz 10 --exit-on-lockout}, default config, a scripted model on a real socket, time
 * moving with a fake clock), as {@code SelfControlEndToEndTest} runs them: per scenario the calls until its stop or its
 * end, the call whose reply was first alerted and the call at which the state left ACTIVE against the threshold, the
 * reflex's first firing and strongest strategy, tokens (of them the judge's), and whether it did what it must. A name
 * (or a part of one) runs only the scenarios it matches. Markdown, for BENCHMARKS.md.
 */
public final class SelfControlBench {
    private SelfControlBench() { }

    public static void main(String[] args) throws Exception {
        Path work = Path.of(args[0]);
        List<String> only = List.of(args).subList(1, args.length);
        System.out.println("| scenario | threshold | calls | alert at | stop at | state | reflex | tokens (judge) | as it must |");
        System.out.println("|---|---|---:|---:|---:|---|---|---:|---|");
        int i = 0;
        int wrong = 0;
        long began = System.nanoTime();
        for (SelfControlScenario s : SelfControlScenario.all()) {
            i++;
            if (!only.isEmpty() && only.stream().noneMatch(s.name()::contains)) continue;
            Path dir = Files.createDirectories(work.resolve("s" + i));
            SelfControlRun.Outcome o = SelfControlRun.run(s, dir);
            // a wait that polls an unchanged result may rest on its way (rests that end by themselves), nothing else
            boolean waits = s.threshold().contains("rests that end by themselves");
            boolean right = waits ? o.calls() == s.stopAt() && o.state().equals("ACTIVE")
                    && o.audit().stream().allMatch(a -> a.equals("rest RESTING") || a.equals("rest_end ACTIVE"))
                    : s.healthy() ? o.calls() == s.stopAt() && o.stopCall() == 0 && o.alertCall() == 0
                    : o.stopCall() == s.stopAt() && o.alertCall() == s.alertAt() && o.state().equals(s.stopState())
                            && o.afterStop() == 0 && o.statusExit() == 7 && o.alertsHeard().size() == 1;
            if (!right) wrong++;
            System.out.printf(Locale.ROOT, "| %s%s | %s | %d | %s | %s | %s | %s | %,d (%,d) | %s |%n",
                    s.healthy() ? "" : "⚠ ", s.name(), s.threshold(), o.calls(), at(o.alertCall()), at(o.stopCall()),
                    o.state(), reflex(o), o.tokens(), o.judgeTokens(), right ? "yes" : "NO");
        }
        System.out.printf(Locale.ROOT, "%n%d scenarios not as they must be; %.1f s in all%n", wrong,
                (System.nanoTime() - began) / 1e9);
    }

    private static String at(int call) {
        return call == 0 ? "–" : Integer.toString(call);
    }

    /** "3 → Radical pause": the call after which the reflex first fired, and its strongest strategy. */
    private static String reflex(SelfControlRun.Outcome o) {
        if (o.firings().isEmpty()) return "–";
        List<String> order = List.of("Radical pause", "Switch LLM", "Change of context", "Goal reformulation",
                "Random iteration", "Creative intervention", "Dialogue with the user", "LLM reflex tuning", "Meta-analysis");
        String strongest = o.firings().stream().map(f -> f.substring(f.indexOf(' ') + 1))
                .min((a, b) -> Integer.compare(rank(order, a), rank(order, b))).orElseThrow();
        return o.reflexCall() + " → " + strongest;
    }

    private static int rank(List<String> order, String strategy) {
        int r = order.indexOf(strategy);
        return r < 0 ? order.size() : r;
    }
}
