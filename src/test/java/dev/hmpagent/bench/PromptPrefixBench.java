package dev.hmpagent.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.Message;
import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.StagnationDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code scripts/bench prompt}: how much of each tick's request is an unchanged prefix of the previous tick's, the
 * part a provider's prompt cache (OpenAI's automatic one, Anthropic's breakpoints, llama.cpp's and Ollama's KV cache)
 * can reuse. Runs TICKS ticks (default 50) of the real cycle ({@link Wiring#cycle}, a real SQLite file, a fake clock,
 * autonomous thinking on) against a scripted {@link FakeLlmClient} whose replies do what an agent does: answer a
 * person's message with send_message, write and pin diary entries, add notebook entries and a goal, run a shell
 * command whose result comes back, look up the diary; a person writes now and then.
 *
 * <p>For each tick after the first: the longest common prefix, in UTF-8 bytes, of the request as an adapter sends
 * it (the messages in order, as JSON) with the previous tick's, over the whole request and over the part after
 * context 0 (the system message: a static context 0 alone would make the first figure easy). Prints the fraction
 * over all ticks (prefix bytes / request bytes) and the median of the per-tick fractions; the median bytes a server
 * still had to read past the shared prefix; where the requests first differed (in which context, or only after the
 * previous tick's context 1, which a new reply extended); and how often the user message's {@link Message#stablePrefix()} hint was byte-identical to the
 * previous tick's (a hit at an Anthropic cache breakpoint there).
 *
 * <p>Run from the shaded jar and the test classes: {@code java -cp target/hmp-agent.jar:target/test-classes
 * dev.hmpagent.bench.PromptPrefixBench [TICKS] [DIR] [PROMPT_BUDGET_TOKENS]}.
 */
public final class PromptPrefixBench {
    private static final Pattern HEADER = Pattern.compile("## Context (\\d) ");
    private static final ObjectMapper JSON = new ObjectMapper();

    private PromptPrefixBench() { }

    public static void main(String[] args) throws Exception {
        int ticks = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("prompt-prefix-bench");
        String budget = args.length > 2 ? args[2] : null;
        MutableClock clock = MutableClock.at("2026-11-25T09:00:00Z");
        FakeLlmClient llm = new FakeLlmClient();
        long stagnant;
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            run(store, clock, llm, config(dir, budget), ticks);
            stagnant = new StagnationDao(store).latest(ticks).stream().filter(StagnationDao.Metric::stagnant).count();
        }
        report(llm.requests, stagnant);
    }

    /**
     * Budgets and the tick cap wide open: the bench measures the prompt, not the SafetyMonitor. The prompt budget is
     * the default unless {@code promptBudget} (tokens) is given.
     */
    private static AgentConfig config(Path dir, String promptBudget) {
        Map<String, String> env = new java.util.HashMap<>(Map.of("AGENT_DB", dir.resolve("agent.db").toString(),
                "AGENT_CYCLE_AUTONOMOUS", "true", "AGENT_SAFETY_TOKEN_BUDGET", "100000000",
                "AGENT_SAFETY_TICK_CAP", "10000"));
        if (promptBudget != null) env.put("AGENT_CONTEXT_PROMPT_BUDGET_TOKENS", promptBudget);
        return ConfigLoader.load(ConfigSources.envOnly(env)).config();
    }

    private static void run(Store store, MutableClock clock, FakeLlmClient llm, AgentConfig config, int ticks)
            throws InterruptedException {
        Wiring.Tools tools = Wiring.tools(config, Approver.NOBODY, List.of(), Map.of("PATH", System.getenv("PATH")),
                clock, () -> llm);
        Cycle cycle = Wiring.cycle(config, store, llm, EventSink.DISCARD, clock, TestWiring.time(clock), tools);
        NotesDao notes = new NotesDao(store);
        DiaryDao diary = new DiaryDao(store);
        for (int tick = 1; tick <= ticks; tick++) {
            // a person writes now and then
            boolean personWrites = tick % 7 == 1;
            if (personWrites) notes.add(QUESTIONS[(tick / 7) % QUESTIONS.length], "user", 0, null);
            String reply = reply(tick, personWrites, diary);
            llm.reply(reply);
            clock.advance(Duration.ofSeconds(30));
            if (!cycle.tick().worked()) throw new IllegalStateException("tick " + tick + " did not think: " + cycle.status());
            if (reply.contains("\"type\": \"shell\"")) awaitResult(tools);
        }
    }

    /**
     * The bench's only wait: the tick's `echo` ends in milliseconds, and its result, handed over when it ended, is
     * recorded at the next tick's start, as it would be in a running agent, so every run shows it at the same tick.
     */
    private static void awaitResult(Wiring.Tools tools) throws InterruptedException {
        for (int i = 0; i < 500 && tools.completions().isEmpty(); i++) Thread.sleep(10);
        if (tools.completions().isEmpty()) throw new IllegalStateException("a shell command did not end in 5 s");
    }

    /** What the person asks, in turn. */
    private static final String[] QUESTIONS = {
        "The nightly backup failed again. Can you find out why?",
        "Any news on the backup? The storage team says their side looks fine.",
        "Could the firewall change from last month have anything to do with it?",
        "Please do not change the firewall yourself; the network team owns it.",
        "Did the restore test work? I would like to know before Friday.",
        "How much extra storage would the split volumes need?",
        "Can you write a short summary I can forward to the team?",
        "Thanks. Is there anything else we should monitor?",
    };

    /** The scripted reply of tick {@code tick}: a thought, then what an agent does at that point. */
    private static String reply(int tick, boolean personWrote, DiaryDao diary) {
        List<String> thoughts = Scenario.thoughts();
        String thought = thoughts.get((tick - 1) % thoughts.size());
        String firstSentence = thought.substring(0, thought.indexOf(". ") > 0 ? thought.indexOf(". ") + 1 : thought.length());
        List<String> commands = new ArrayList<>();
        if (personWrote) commands.add(command(tick, "send_message", "\"text\": \"" + json("On it. " + firstSentence) + "\""));
        if (tick == 2) commands.add(command(tick, "goal_add", "\"title\": \"find why the nightly backup fails\", \"priority\": 2"));
        if (tick % 3 == 0) commands.add(command(tick, "diary_entry", "\"text\": \"" + json(thought) + "\", \"tags\": \"backup\""));
        if (tick % 9 == 5) {
            commands.add(command(tick, "memory_add", "\"title\": \"finding " + tick + "\", \"content\": \""
                    + json(firstSentence) + "\""));
        }
        if (tick % 3 == 2) {
            commands.add(command(tick, "concept_add", "\"name\": \"backup finding " + tick + "\", \"description\": "
                    + "\"from the nightly backup investigation\""));
        }
        long latestEntry = diary.search("", 1).stream().mapToLong(dev.hmpagent.store.DiaryRow::id).findFirst().orElse(0);
        if ((tick == 4 || tick == 25) && latestEntry > 0) commands.add(command(tick, "diary_pin", "\"id\": " + latestEntry));
        if (tick % 4 == 1) commands.add(command(tick, "shell", "\"command\": \"echo checked the upload log, part " + tick + "\""));
        if (tick == 12) commands.add(command(tick, "diary_read", "\"query\": \"firewall\""));
        return thought + (commands.isEmpty() ? ""
                : "\n\n# Commands:\n```json\n[" + String.join(",\n ", commands) + "]\n```\n# End commands");
    }

    private static String json(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static String command(int tick, String type, String args) {
        return "{\"cmd_id\": \"c-" + tick + "-" + type + "\", \"type\": \"" + type + "\", \"args\": {" + args + "}}";
    }

    /** The messages as an OpenAI-style adapter sends them, in order: [{"role": …, "content": …}, …], UTF-8. */
    static byte[] serialized(List<Message> messages) {
        ArrayNode array = JSON.createArrayNode();
        messages.forEach(m -> array.addObject().put("role", m.role().word()).put("content", m.content()));
        return array.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The serialized request up to the end of its first (system) message. */
    static int systemBytes(List<Message> messages) {
        return serialized(messages.subList(0, 1)).length - 1;   // without the closing bracket
    }

    static int commonPrefix(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        int i = 0;
        while (i < n && a[i] == b[i]) i++;
        return i;
    }

    private static void report(List<LlmRequest> requests, long stagnant) {
        long wholeShared = 0;
        long wholeBytes = 0;
        long afterShared = 0;
        long afterBytes = 0;
        List<Double> wholeRatios = new ArrayList<>();
        List<Double> afterRatios = new ArrayList<>();
        List<Double> unshared = new ArrayList<>();
        Map<String, Integer> brokeIn = new TreeMap<>();
        int hintHits = 0;
        int hinted = 0;
        int seamHits = 0;
        int seamed = 0;
        long breakpointChars = 0;
        long stableOnlyChars = 0;
        long requestChars = 0;
        for (int i = 1; i < requests.size(); i++) {
            List<Message> before = requests.get(i - 1).messages();
            List<Message> now = requests.get(i).messages();
            byte[] a = serialized(before);
            byte[] b = serialized(now);
            int shared = commonPrefix(a, b);
            int system = systemBytes(now);
            int after = Math.max(0, shared - system);
            wholeShared += shared;
            wholeBytes += b.length;
            afterShared += after;
            afterBytes += b.length - system;
            wholeRatios.add((double) shared / b.length);
            afterRatios.add((double) after / (b.length - system));
            unshared.add((double) (b.length - shared));
            brokeIn.merge(brokeIn(before, now), 1, Integer::sum);
            Message user = now.get(1);
            Message userBefore = before.get(1);
            // what breakpoints at the system prompt's end, the stable prefix and the last seam would read from cache
            boolean systemSame = before.get(0).content().equals(now.get(0).content());
            long reused = 0;
            if (systemSame && user.stablePrefix() > 0 && user.stablePrefix() == userBefore.stablePrefix()
                    && user.content().regionMatches(0, userBefore.content(), 0, user.stablePrefix())) {
                reused = user.stablePrefix();
            }
            stableOnlyChars += (systemSame ? now.get(0).content().length() : 0) + reused;
            if (!userBefore.seams().isEmpty()) {
                seamed++;
                int last = userBefore.seams().get(userBefore.seams().size() - 1);
                if (systemSame && user.seams().contains(last)
                        && user.content().regionMatches(0, userBefore.content(), 0, last)) {
                    seamHits++;
                    reused = last;
                }
            }
            breakpointChars += (systemSame ? now.get(0).content().length() : 0) + reused;
            requestChars += now.get(0).content().length() + user.content().length();
            if (user.stablePrefix() > 0) {
                hinted++;
                Message was = before.get(1);
                if (was.stablePrefix() == user.stablePrefix()
                        && was.content().regionMatches(0, user.content(), 0, user.stablePrefix())) hintHits++;
            }
        }
        int n = requests.size() - 1;
        long trimmed = requests.stream().filter(r -> r.messages().get(1).content().contains("left out to fit the prompt budget"))
                .count();
        System.out.printf(Locale.ROOT, "prompt prefix over %d ticks of the real cycle (default config, autonomous, scripted model;"
                + " step 5 flagged %d ticks as stagnant), each request against the one before (%d pairs):%n",
                requests.size(), stagnant, n);
        System.out.printf(Locale.ROOT, "  whole request   : %5.1f %% of %,d bytes an unchanged prefix; median per tick %5.1f %%%n",
                100.0 * wholeShared / wholeBytes, wholeBytes, 100 * median(wholeRatios));
        System.out.printf(Locale.ROOT, "  after context 0 : %5.1f %% of %,d bytes an unchanged prefix; median per tick %5.1f %%%n",
                100.0 * afterShared / afterBytes, afterBytes, 100 * median(afterRatios));
        System.out.printf(Locale.ROOT, "  median request  : %,d bytes (context 0: %,d), of which after the shared prefix %,d bytes%n",
                (long) median(requests.stream().map(r -> (double) serialized(r.messages()).length).toList()),
                (long) median(requests.stream().map(r -> (double) systemBytes(r.messages())).toList()),
                (long) median(unshared));
        System.out.printf(Locale.ROOT, "  first request   : %,d bytes (context 0: %,d)%n",
                serialized(requests.get(0).messages()).length, systemBytes(requests.get(0).messages()));
        System.out.printf(Locale.ROOT, "  past the prefix : %,d bytes in all, what a server read anew (a cache cannot save it)%n",
                wholeBytes - wholeShared);
        System.out.printf(Locale.ROOT, "  first change    : %s (ticks); %d prompts trimmed to the budget%n", brokeIn, trimmed);
        System.out.printf(Locale.ROOT, "  stable-prefix hint (contexts 6 and 3): set on %d of %d user messages, byte-identical to the"
                + " tick before's on %d%n", hinted, n, hintHits);
        System.out.printf(Locale.ROOT, "  reply seams     : the previous request's last seam began this one on a seam on %d of %d ticks;"
                + " breakpoints there, at the stable prefix and at context 0's end read %.1f %% of the characters"
                + " from cache (without the seam's: %.1f %%)%n",
                seamHits, seamed, 100.0 * breakpointChars / requestChars, 100.0 * stableOnlyChars / requestChars);
    }

    /**
     * Where the request first differs from the one before: "context 0", the context of the user message it lies in,
     * or "a reply came" when only what follows the previous tick's context 1 differs (context 1 grew by a reply).
     */
    private static String brokeIn(List<Message> before, List<Message> now) {
        if (!before.get(0).content().equals(now.get(0).content())) return "context 0";
        String was = before.get(1).content();
        String is = now.get(1).content();
        int shared = 0;
        while (shared < Math.min(was.length(), is.length()) && was.charAt(shared) == is.charAt(shared)) shared++;
        if (shared == is.length() && shared == was.length()) return "none";
        int endOfReplies = was.indexOf("\n## Context 2 ");
        if (endOfReplies >= 0 && shared >= endOfReplies) return "a reply came";
        Matcher m = HEADER.matcher(is.substring(0, shared));
        String context = "the start of message 1";
        while (m.find()) context = "context " + m.group(1);
        return context;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        if (n == 0) return 0;
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
