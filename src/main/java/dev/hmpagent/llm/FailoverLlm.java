package dev.hmpagent.llm;

import dev.hmpagent.text.Text;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiPredicate;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The main LLM and the others it may fail over to (HMP "Core Outage"), in priority order, as one {@link LlmClient}.
 *
 * <ul>
 *   <li>The LLM in use failing transiently until {@code giveUp} says so (N failures in a row, or T seconds): the next
 *   available one by priority thinks instead, at once for the same request; the ones above it are probed cheaply
 *   ({@link LlmClient#probe()}, never a full prompt) on a back-off schedule, and used again when they answer.</li>
 *   <li>An LLM refusing for good (quota exhausted, key rejected) is out until a restart; the next one takes over, and
 *   with none left the refusal goes to the caller (the cycle stops for quota).</li>
 *   <li>No LLM left that answers: an outage. No full prompt is sent while it lasts; each call probes the LLMs in
 *   priority order and the first that answers gets the request. The caller's own back-off spaces the calls.</li>
 * </ul>
 * Each change is said once, through {@link #notices()}. Every client keeps its own base URL and key, so a key never
 * travels to another host. Calls come from one thread at a time (the tick thread); their cancels from any: a call's
 * {@link CallCancel} reaches the probes made for it and every LLM it fails over to.
 */
public final class FailoverLlm implements LlmClient {
    /** One LLM: an id (the llm_registry id) and its client. */
    public record Route(String id, LlmClient client) {
        public Route {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(client, "client");
        }

        String describe() {
            return client.model() + " at " + client.endpoint() + " (" + id + ")";
        }
    }

    private final List<Route> routes;
    private final BiPredicate<Integer, Duration> giveUp;
    private final Backoff probes;
    /** Monotonic nanoseconds ({@link System#nanoTime}): a stepped wall clock must not hold a probe back for hours. */
    private final LongSupplier nanos;
    private final Health[] health;
    private final List<String> said = new ArrayList<>();
    private volatile int active;
    private boolean outage;

    /**
     * @param routes the main LLM first, then the others by priority
     * @param giveUp given the failures in a row and how long the LLM has been failing: whether to give it up
     * @param probes when to probe a given-up LLM again (after its n-th failed probe)
     * @param nanos  a monotonic reading in nanoseconds, like {@link System#nanoTime}: how long it failed, when to probe
     */
    public FailoverLlm(List<Route> routes, BiPredicate<Integer, Duration> giveUp, Backoff probes, LongSupplier nanos) {
        this.routes = List.copyOf(routes);
        if (this.routes.isEmpty()) throw new IllegalArgumentException("no LLM to call");
        this.giveUp = Objects.requireNonNull(giveUp, "giveUp");
        this.probes = Objects.requireNonNull(probes, "probes");
        this.nanos = Objects.requireNonNull(nanos, "nanos");
        this.health = new Health[this.routes.size()];
        for (int i = 0; i < health.length; i++) health[i] = new Health();
    }

    /** What each LLM's state is: failing since when, given up, out for good, when to probe it next. */
    private static final class Health {
        int failures;
        long failingSince;
        boolean down;
        String out;            // why it is out for good, or null
        int failedProbes;
        boolean probeDue;      // whether probeAt holds a time
        long probeAt;
        String lastError = "";

        void answered() {
            failures = 0;
            failingSince = 0;
            down = false;
            failedProbes = 0;
            probeDue = false;
        }
    }

    /**
     * Rewrites a request assembled while {@code was} was thinking for {@code now}, which answers it instead (what the
     * prompt says of the model follows the switch at once, not from the next prompt).
     */
    @FunctionalInterface
    public interface Retarget {
        LlmRequest apply(LlmRequest request, LlmClient was, LlmClient now);
    }

    private volatile Retarget retarget = (request, was, now) -> request;

    /** Rewrites each request another LLM answers than the one active when it was assembled, with {@code retarget}. */
    public FailoverLlm retargeting(Retarget retarget) {
        this.retarget = Objects.requireNonNull(retarget, "retarget");
        return this;
    }

    /** A person's choice of LLM (/model) not yet taken up: the next call does, on the tick thread. */
    private final AtomicReference<String> personChoice = new AtomicReference<>();

    /** Whether {@code id} is one of the LLMs this failover routes between. */
    public boolean routes(String id) {
        return routes.stream().anyMatch(r -> r.id().equals(id));
    }

    /** A person chose LLM {@code id} (/model): the next call thinks with it, and failover goes on from there. */
    public void choose(String id) {
        if (!routes(id)) throw new IllegalArgumentException("no LLM " + id + " among " + routes.stream().map(Route::id).toList());
        personChoice.set(id);
    }

    /** Why LLM {@code id} is out for good (its quota, its key), if it is. */
    public Optional<String> outBecause(String id) {
        for (int i = 0; i < routes.size(); i++) {
            if (routes.get(i).id().equals(id)) return Optional.ofNullable(health[i].out);
        }
        return Optional.empty();
    }

    /** The LLM a person chose that the next call takes up, if any. */
    public Optional<String> chosenNext() {
        return Optional.ofNullable(personChoice.get());
    }

    /** Where the LLM's own choice of main LLM is read (llm_select); empty when it chose none. */
    private volatile Supplier<Optional<String>> selection = Optional::empty;
    private String selected = "";

    /** Reads the LLM's own choice of main LLM from {@code selection} before each call, and follows a new one. */
    public FailoverLlm following(Supplier<Optional<String>> selection) {
        this.selection = Objects.requireNonNull(selection, "selection");
        return this;
    }

    @Override
    public Completion complete(LlmRequest request, StreamListener listener, CallCancel cancel) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(listener, "listener");
        Route assembledFor = routes.get(active);
        String chosen = selection.get().orElse("");
        if (!chosen.equals(selected)) {
            selected = chosen;
            if (!chosen.isEmpty()) prefer(chosen, "the LLM");
        }
        String person = personChoice.getAndSet(null);
        if (person != null) prefer(person, PERSON);
        if (outage) {
            // a call cancelled while it probed goes on to its route, which returns it interrupted at once
            if (!recoverFromOutage(cancel) && !cancel.cancelled()) throw noneAnswers();
        } else if (active != 0) {
            probeAbove(active, cancel);
        }
        return attempt(active, request, assembledFor, listener, cancel, true);
    }

    /** Asks route {@code index}; {@code request} was assembled while {@code assembledFor} was thinking. */
    private Completion attempt(int index, LlmRequest request, Route assembledFor, StreamListener listener,
                               CallCancel cancel, boolean mayFailOver) {
        Route route = routes.get(index);
        Health h = health[index];
        LlmRequest sent = route == assembledFor ? request : retarget.apply(request, assembledFor.client(), route.client());
        try {
            Completion c = route.client().complete(sent, listener, cancel);
            if (!c.interrupted()) h.answered();
            return c;
        } catch (LlmException e) {
            markFailed(h, e);
            Optional<Integer> next = nextAvailable();
            if (next.isEmpty()) throw noneLeft(route, h, e);
            active = next.get();
            say(route.describe() + (h.out != null ? " is out because " + h.out : " failed " + h.failures
                    + " times in a row") + ": thinking with " + routes.get(active).describe() + " instead"
                    + (index == 0 && h.out == null ? " until it answers again" : ""));
            if (!mayFailOver) throw e;
            return attempt(active, request, assembledFor, listener, cancel, false);
        }
    }

    /**
     * Records the failure on the route's health; rethrows what failing over cannot help (a request the server
     * refused, or a transient failure not yet given up on).
     */
    private void markFailed(Health h, LlmException e) {
        h.lastError = e.getMessage();
        if (e.quotaExhausted() || e.authRejected()) {
            h.out = e.quotaExhausted() ? "its quota is exhausted" : "it rejected the key";
            h.down = true;
        } else if (e.retryable()) {
            long now = nanos.getAsLong();
            if (h.failures++ == 0) h.failingSince = now;
            if (!giveUp.test(h.failures, Duration.ofNanos(now - h.failingSince))) throw e;
            h.down = true;
            h.failedProbes = 0;
            h.probeDue = true;
            h.probeAt = now + probes.delay(1, Optional.empty()).toNanos();
        } else {
            throw e;
        }
    }

    /** No other route is available: the outage, said once, and the failure to throw at the caller. */
    private LlmException noneLeft(Route route, Health h, LlmException e) {
        outage = true;
        if (java.util.Arrays.stream(health).allMatch(x -> x.out != null)) {
            // out for good, every one: nothing is asked again, so nothing is promised; the refusal goes to
            // the caller, which says what happens now (a stop for quota)
            if (routes.size() > 1) say("No LLM can be used: " + outReasons());
            return e;
        }
        say("No LLM answers: " + route.describe() + (h.out != null ? " is out because " + h.out
                : " failed " + h.failures + " times in a row") + (routes.size() > 1 ? " and no other LLM is"
                + " available" : "") + ". The agent goes on without thinking: ticks are logged, messages queue"
                + " and processes are tracked; it asks the LLM again with back-off and reads the queued"
                + " messages in order when one answers");
        return e;
    }

    /** Who chose in {@link #prefer}: a person, with /model. */
    private static final String PERSON = "you";

    /** Thinks with route {@code id} from now on ({@code who} chose it: the LLM, or {@link #PERSON}), unless it is out or unknown. */
    private void prefer(String id, String who) {
        for (int i = 0; i < routes.size(); i++) {
            if (!routes.get(i).id().equals(id) || i == active) continue;
            if (health[i].out != null) {
                say(who + " chose " + routes.get(i).describe() + ", which is out because " + health[i].out
                        + ": staying with " + routes.get(active).describe());
                return;
            }
            health[i].answered();
            outage = false;
            active = i;
            say("thinking with " + routes.get(i).describe() + ", as " + who + " chose"
                    + (who.equals(PERSON) ? " (/model)" : " (llm_select)"));
            return;
        }
    }

    /** The first LLM by priority that is neither given up nor out. */
    private Optional<Integer> nextAvailable() {
        for (int i = 0; i < routes.size(); i++) {
            if (!health[i].down && health[i].out == null) return Optional.of(i);
        }
        return Optional.empty();
    }

    /** Probes, when due, the given-up LLMs above {@code index}; the first that answers is used again. */
    private void probeAbove(int index, CallCancel cancel) {
        long now = nanos.getAsLong();
        for (int i = 0; i < index; i++) {
            Health h = health[i];
            if (h.out != null || !h.probeDue || now - h.probeAt < 0) continue;
            if (probe(i, cancel)) {
                say(routes.get(i).describe() + " answers again: thinking with it instead of "
                        + routes.get(active).describe());
                active = i;
                return;
            }
        }
    }

    /** In an outage: probes every LLM not out, by priority; true when one answered (it is used from now on). */
    private boolean recoverFromOutage(CallCancel cancel) {
        for (int i = 0; i < routes.size(); i++) {
            if (health[i].out != null) continue;
            if (probe(i, cancel)) {
                outage = false;
                active = i;
                say(routes.get(i).describe() + " answers again: the agent thinks again and reads the messages that"
                        + " queued, in order");
                return true;
            }
        }
        return false;
    }

    /**
     * Probes route {@code index} for a call under {@code cancel}; true when it answered. A probe the cancel cut short
     * says nothing of the route: its health stays as it was, and no route is probed after it.
     */
    private boolean probe(int index, CallCancel cancel) {
        Health h = health[index];
        if (cancel.cancelled()) return false;
        try {
            routes.get(index).client().probe(cancel);
            if (cancel.cancelled()) return false;
            h.answered();
            return true;
        } catch (LlmException e) {
            if (cancel.cancelled()) return false;
            h.lastError = e.getMessage();
            if (e.quotaExhausted() || e.authRejected()) {
                h.out = e.quotaExhausted() ? "its quota is exhausted" : "it rejected the key";
                return false;
            }
            h.failedProbes++;
            h.probeDue = true;
            h.probeAt = nanos.getAsLong() + probes.delay(h.failedProbes + 1, Optional.empty()).toNanos();
            return false;
        }
    }

    /** The failure of a call in an outage: the first LLM's last error, said as no LLM answering. */
    private LlmException noneAnswers() {
        StringBuilder why = new StringBuilder();
        for (int i = 0; i < routes.size(); i++) {
            if (i > 0) why.append("; ");
            why.append(routes.get(i).id()).append(": ").append(health[i].out != null ? "out, " + health[i].out
                    : firstLine(health[i].lastError));
        }
        boolean allOut = java.util.Arrays.stream(health).allMatch(h -> h.out != null);
        if (allOut) {
            String kind = health[0].out != null && health[0].out.startsWith("its quota") ? LlmException.INSUFFICIENT_QUOTA
                    : "http_401";
            return new FatalLlmException(kind, "no LLM can be used: " + why, null);
        }
        return new RetryableLlmException("outage", "no LLM answers (" + why + ")", null, null);
    }

    /** "main is out because its quota is exhausted; b is out because it rejected the key". */
    private String outReasons() {
        StringBuilder why = new StringBuilder();
        for (int i = 0; i < routes.size(); i++) {
            if (i > 0) why.append("; ");
            why.append(routes.get(i).describe()).append(" is out because ").append(health[i].out);
        }
        return why.toString();
    }

    private static String firstLine(String s) {
        return s == null || s.isBlank() ? "no answer" : Text.fit(Text.firstLine(s), 160);
    }

    private void say(String line) {
        synchronized (said) {
            said.add(line);
        }
    }

    /** The switches since the last call, each said once. */
    @Override
    public List<String> notices() {
        List<String> out;
        synchronized (said) {
            out = new ArrayList<>(said);
            said.clear();
        }
        // what each LLM says of itself (Ollama's context size), named when there are others
        for (Route r : routes) {
            for (String line : r.client().notices()) out.add(routes.size() > 1 ? r.id() + ": " + line : line);
        }
        return List.copyOf(out);
    }

    /** Whether no LLM answers now (the agent goes on without thinking until one does). */
    public boolean inOutage() {
        return outage;
    }

    /** The id of the LLM in use. */
    public String activeId() {
        return routes.get(active).id();
    }

    @Override
    public String endpoint() {
        return routes.get(active).client().endpoint();
    }

    @Override
    public String model() {
        return routes.get(active).client().model();
    }

    @Override
    public void probe(CallCancel cancel) {
        routes.get(active).client().probe(cancel);
    }
}
