package dev.hmpagent.bench;

import dev.hmpagent.runtime.TestWiring;

import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.stagnation.LlmComparator;
import dev.hmpagent.store.StagnationDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code scripts/bench stagnation}: what step 5 costs and what it catches. A scripted 50-tick autonomous run of the
 * real cycle (a real SQLite file, a fake clock) whose every reply is labelled: new, a word-for-word repeat (of the
 * previous reply or of an earlier one), or a paraphrase (the same idea as the reply before in other words). The
 * fake model answers the comparison mini-requests as a good judge would: "no new thoughts" for a repeat or a
 * paraphrase, "yes" for a new reply. Each comparison mode (llm, local, hybrid) runs the same script; the bench prints
 * the comparison calls and tokens, the labelled episodes detected, the ticks from an episode's onset to its
 * detection, and the detections outside any episode. The reflex's strategies are off (stagnation.reflex = false):
 * they would not change a scripted model's replies, and the figures are about detection and cost.
 *
 * <p>Then one chanting reply (a sentence repeated until max_tokens) is streamed through the cycle: the tokens the
 * cut saved against the whole reply.
 *
 * <p>Run: {@code java -cp target/hmp-agent.jar:target/test-classes dev.hmpagent.bench.StagnationBench [DIR]}.
 */
public final class StagnationBench {
    enum Label { NEW, REPEAT, PARAPHRASE }

    /** One scripted reply: its label and text. */
    record Step(Label label, String text) { }

    private StagnationBench() { }

    public static void main(String[] args) throws Exception {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("stagnation-bench");
        List<Step> script = Scenario.steps();
        List<int[]> episodes = episodes(script);
        long repeats = script.stream().filter(s -> s.label() == Label.REPEAT).count();
        long paraphrases = script.stream().filter(s -> s.label() == Label.PARAPHRASE).count();
        System.out.printf(Locale.ROOT, "scenario: %d ticks, %d new, %d repeated, %d paraphrased; %d labelled episodes"
                        + " (%d of repeats, %d of paraphrases)%n", script.size(), script.size() - repeats - paraphrases,
                repeats, paraphrases, episodes.size(), episodes.stream().filter(e -> script.get(e[0]).label() == Label.REPEAT)
                        .count(), episodes.stream().filter(e -> script.get(e[0]).label() == Label.PARAPHRASE).count());
        System.out.println();
        System.out.println("mode    calls  tokens  episodes   repeat  paraphrase  onset->detection (median/max)  false");
        Map<String, Result> results = new java.util.LinkedHashMap<>();
        for (String mode : List.of("llm", "local", "hybrid")) {
            Result r = run(dir.resolve(mode + ".db"), mode, script, episodes);
            results.put(mode, r);
            System.out.printf(Locale.ROOT, "%-7s %5d  %6d  %3d of %-3d %3d     %3d         %s / %s                        %d%n",
                    mode, r.calls, r.tokens, r.detected, episodes.size(), r.detectedRepeat, r.detectedParaphrase,
                    r.medianDelay(), r.maxDelay(), r.falseDetections);
        }
        Result llm = results.get("llm");
        Result hybrid = results.get("hybrid");
        System.out.printf(Locale.ROOT, "%nhybrid / llm comparison tokens: %.2f (target <= 0.50), episodes %d vs %d%n",
                llm.tokens == 0 ? 0 : (double) hybrid.tokens / llm.tokens, hybrid.detected, llm.detected);
        loop(dir);
        chant(dir.resolve("chant.db"));
    }

    /** Runs of consecutive non-new steps: {first index, last index}. */
    static List<int[]> episodes(List<Step> script) {
        List<int[]> out = new ArrayList<>();
        int i = 0;
        while (i < script.size()) {
            if (script.get(i).label() == Label.NEW) {
                i++;
                continue;
            }
            int start = i;
            while (i + 1 < script.size() && script.get(i + 1).label() == script.get(start).label()) i++;
            out.add(new int[] {start, i});
            i++;
        }
        return out;
    }

    static final class Result {
        int calls;
        long tokens;
        int detected;
        int detectedRepeat;
        int detectedParaphrase;
        int falseDetections;
        final List<Integer> delays = new ArrayList<>();

        String medianDelay() {
            if (delays.isEmpty()) return "-";
            List<Integer> sorted = delays.stream().sorted().toList();
            return Integer.toString(sorted.get(sorted.size() / 2));
        }

        String maxDelay() {
            return delays.isEmpty() ? "-" : Integer.toString(delays.stream().mapToInt(Integer::intValue).max().orElse(0));
        }
    }

    /** The script through the real cycle in one mode: which ticks step 5 found stagnant; calls and tokens into r. */
    private static boolean[] flagged(Path db, String mode, List<Step> script, Result r) {
        MutableClock clock = MutableClock.at("2026-11-24T10:00:00Z");
        try (Store store = Store.open(db, clock)) {
            Cycle cycle = TestWiring.cycle(config(mode), store, new ScriptedModel(script, r), EventSink.DISCARD, clock);
            for (int i = 0; i < script.size(); i++) {
                clock.advance(Duration.ofSeconds(30));
                if (!cycle.tick().worked()) {
                    throw new IllegalStateException("tick " + (i + 1) + " did not think: " + cycle.status());
                }
            }
            boolean[] flagged = new boolean[script.size()];
            for (StagnationDao.Metric m : new StagnationDao(store).latest(script.size() + 10)) {
                int index = (int) m.tickId() - 1;
                if (index >= 0 && index < flagged.length) flagged[index] = m.stagnant();
            }
            return flagged;
        }
    }

    /** The paraphrase loop in each mode: the first tick step 5 finds stagnant (1-based), calls and tokens. */
    private static void loop(Path dir) {
        List<Step> script = Scenario.paraphraseLoop();
        System.out.printf(Locale.ROOT, "%nparaphrase loop (%d ticks, each reply the one before in other words, no"
                + " commands)%nmode    calls  tokens  first stagnant tick%n", script.size());
        for (String mode : List.of("llm", "local", "hybrid")) {
            Result r = new Result();
            boolean[] flagged = flagged(dir.resolve("loop-" + mode + ".db"), mode, script, r);
            int first = 0;
            while (first < flagged.length && !flagged[first]) first++;
            System.out.printf(Locale.ROOT, "%-7s %5d  %6d  %s%n", mode, r.calls, r.tokens,
                    first < flagged.length ? Integer.toString(first + 1) : "none");
        }
    }

    private static Result run(Path db, String mode, List<Step> script, List<int[]> episodes) {
        Result r = new Result();
        boolean[] flagged = flagged(db, mode, script, r);
        boolean[] inEpisode = new boolean[script.size()];
        for (int[] e : episodes) {
            for (int i = e[0]; i <= e[1]; i++) inEpisode[i] = true;
            // a detection at the tick after the episode's last still counts: the signs see a tick once it is over
            int until = Math.min(script.size() - 1, e[1] + 1);
            for (int i = e[0]; i <= until; i++) {
                if (flagged[i]) {
                    r.detected++;
                    if (script.get(e[0]).label() == Label.REPEAT) r.detectedRepeat++;
                    else r.detectedParaphrase++;
                    r.delays.add(i - e[0]);
                    break;
                }
            }
        }
        for (int i = 0; i < flagged.length; i++) {
            boolean graceAfterEpisode = i > 0 && inEpisode[i - 1];
            if (flagged[i] && !inEpisode[i] && !graceAfterEpisode) r.falseDetections++;
        }
        return r;
    }

    private static AgentConfig config(String mode) {
        // budgets and the tick cap wide open: the bench measures step 5, not the SafetyMonitor
        return ConfigLoader.load(ConfigSources.envOnly(Map.of("AGENT_CYCLE_AUTONOMOUS", "true",
                "AGENT_STAGNATION_METHOD", mode, "AGENT_STAGNATION_REFLEX", "false",
                "AGENT_SAFETY_TOKEN_BUDGET", "100000000", "AGENT_SAFETY_TICK_CAP", "1000"))).config();
    }

    /**
     * The model: main requests get the next scripted reply (with a concept_add command when it is new, so the graph
     * grows as a thinking agent's does); comparison requests are judged by the labels.
     */
    static final class ScriptedModel implements LlmClient {
        private final List<Step> script;
        private final Result result;
        private int next;

        ScriptedModel(List<Step> script, Result result) {
            this.script = script;
            this.result = result;
        }

        @Override
        public Completion complete(LlmRequest request, StreamListener listener, dev.hmpagent.llm.CallCancel cancel) {
            if (LlmComparator.isComparison(request.messages())) return judge(request);
            Step step = script.get(next++);
            String text = step.text();
            listener.onDelta(text);
            return new Completion(text, new Usage(TokenEstimator.estimate(request.messages()), TokenEstimator.estimate(text),
                    true), "scripted", "stop", false);
        }

        /** A judge that knows the labels: the new reply is the last scripted one sent. */
        private Completion judge(LlmRequest request) {
            Step current = script.get(next - 1);
            String answer = current.label() == Label.NEW
                    ? "{\"new_thoughts\": \"yes\", \"novelty\": 0.85, \"new_ideas\": [\"" + firstWords(current.text()) + "\"],"
                            + " \"refined_ideas\": [], \"discarded_ideas\": []}"
                    : "{\"new_thoughts\": \"no\", \"novelty\": 0.05, \"new_ideas\": [], \"refined_ideas\": [],"
                            + " \"discarded_ideas\": []}";
            Usage usage = new Usage(TokenEstimator.estimate(request.messages()), TokenEstimator.estimate(answer), true);
            result.calls++;
            result.tokens += usage.total();
            return new Completion(answer, usage, "scripted", "stop", false);
        }

        private static String firstWords(String text) {
            String[] w = text.split("\\s+");
            return String.join(" ", java.util.Arrays.copyOf(w, Math.min(6, w.length))).replace("\"", "");
        }

        @Override
        public String endpoint() { return "scripted"; }

        @Override
        public String model() { return "scripted"; }
    }

    /** One chanting reply through the real cycle: the tokens the cut in the stream saved. */
    private static void chant(Path db) {
        MutableClock clock = MutableClock.at("2026-11-24T12:00:00Z");
        String thought = "Let me check the backup log once more before deciding what to do about the failing job. ";
        String loop = "I will check the backup log again to be sure. ";
        int maxTokens = AgentConfig.defaults().llm().maxTokens();
        StringBuilder whole = new StringBuilder(thought);
        while (TokenEstimator.estimate(whole.toString()) < maxTokens) whole.append(loop);
        String full = whole.toString();
        int[] streamed = {0};
        boolean[] cancelled = {false};
        LlmClient chanting = new LlmClient() {
            @Override
            public Completion complete(LlmRequest request, StreamListener listener, dev.hmpagent.llm.CallCancel cancel) {
                cancel.onCancel(() -> cancelled[0] = true);
                StringBuilder sent = new StringBuilder();
                for (int i = 0; i < full.length() && !cancelled[0]; i += 8) {
                    String delta = full.substring(i, Math.min(full.length(), i + 8));
                    sent.append(delta);
                    listener.onDelta(delta);
                }
                streamed[0] = sent.length();
                return new Completion(sent.toString(), new Usage(TokenEstimator.estimate(request.messages()),
                        TokenEstimator.estimate(sent.toString()), true), "scripted", cancelled[0] ? "" : "length",
                        cancelled[0]);
            }

            @Override
            public String endpoint() { return "scripted"; }

            @Override
            public String model() { return "scripted"; }
        };
        try (Store store = Store.open(db, clock)) {
            new dev.hmpagent.store.NotesDao(store).add("is the backup fixed?", "user", 0, null);
            TestWiring.cycle(config("local"), store, chanting, EventSink.DISCARD, clock).tick();
        }
        int fullTokens = TokenEstimator.estimate(full);
        int spent = TokenEstimator.estimate(full.substring(0, streamed[0]));
        System.out.printf(Locale.ROOT, "%nchanting reply (\"%s\" repeated up to max_tokens %d): cut after %d of %d"
                        + " characters; %d of %d completion tokens spent, %d saved (%.0f %%)%n", loop.strip(), maxTokens,
                streamed[0], full.length(), spent, fullTokens, fullTokens - spent,
                100.0 * (fullTokens - spent) / fullTokens);
    }
}
