package dev.hmpagent.llm;

import java.time.Duration;
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
    /** Each LLM's state and what a person is told of it. */
    private final RouteHealth health;
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
        // monotonic nanoseconds (System.nanoTime): a stepped wall clock must not hold a probe back for hours
        this.health = new RouteHealth(this.routes, Objects.requireNonNull(giveUp, "giveUp"),
                Objects.requireNonNull(probes, "probes"), Objects.requireNonNull(nanos, "nanos"));
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
            if (routes.get(i).id().equals(id)) return Optional.ofNullable(health.out(i));
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
            if (!recoverFromOutage(cancel) && !cancel.cancelled()) throw health.noneAnswers();
        } else if (active != 0) {
            probeAbove(active, cancel);
        }
        return attempt(active, request, assembledFor, listener, cancel, true);
    }

    /** Asks route {@code index}; {@code request} was assembled while {@code assembledFor} was thinking. */
    private Completion attempt(int index, LlmRequest request, Route assembledFor, StreamListener listener,
                               CallCancel cancel, boolean mayFailOver) {
        Route route = routes.get(index);
        LlmRequest sent = route == assembledFor ? request : retarget.apply(request, assembledFor.client(), route.client());
        try {
            Completion c = route.client().complete(sent, listener, cancel);
            if (!c.interrupted()) health.answered(index);
            return c;
        } catch (LlmException e) {
            health.failed(index, e);
            Optional<Integer> next = health.nextAvailable();
            if (next.isEmpty()) throw noneLeft(index, e);
            active = next.get();
            health.say(route.describe() + " " + health.trouble(index) + ": thinking with "
                    + routes.get(active).describe() + " instead"
                    + (index == 0 && health.out(index) == null ? " until it answers again" : ""));
            if (!mayFailOver) throw e;
            return attempt(active, request, assembledFor, listener, cancel, false);
        }
    }

    /** No other route is available: the outage, said once, and the failure to throw at the caller. */
    private LlmException noneLeft(int index, LlmException e) {
        outage = true;
        if (health.allOut()) {
            // out for good, every one: nothing is asked again, so nothing is promised; the refusal goes to
            // the caller, which says what happens now (a stop for quota)
            if (routes.size() > 1) health.say("No LLM can be used: " + health.outReasons());
            return e;
        }
        health.say("No LLM answers: " + routes.get(index).describe() + " " + health.trouble(index)
                + (routes.size() > 1 ? " and no other LLM is available" : "") + ". The agent goes on without thinking:"
                + " ticks are logged, messages queue and processes are tracked; it asks the LLM again with back-off and reads the queued"
                + " messages in order when one answers");
        return e;
    }

    /** Who chose in {@link #prefer}: a person, with /model. */
    private static final String PERSON = "you";

    /** Thinks with route {@code id} from now on ({@code who} chose it: the LLM, or {@link #PERSON}), unless it is out or unknown. */
    private void prefer(String id, String who) {
        for (int i = 0; i < routes.size(); i++) {
            if (!routes.get(i).id().equals(id) || i == active) continue;
            if (health.out(i) != null) {
                health.say(who + " chose " + routes.get(i).describe() + ", which is out because " + health.out(i)
                        + ": staying with " + routes.get(active).describe());
                return;
            }
            health.answered(i);
            outage = false;
            active = i;
            health.say("thinking with " + routes.get(i).describe() + ", as " + who + " chose"
                    + (who.equals(PERSON) ? " (/model)" : " (llm_select)"));
            return;
        }
    }

    /** Probes, when due, the given-up LLMs above {@code index}; the first that answers is used again. */
    private void probeAbove(int index, CallCancel cancel) {
        for (int i = 0; i < index; i++) {
            if (!health.probeDue(i)) continue;
            if (probe(i, cancel)) {
                health.say(routes.get(i).describe() + " answers again: thinking with it instead of "
                        + routes.get(active).describe());
                active = i;
                return;
            }
        }
    }

    /** In an outage: probes every LLM not out, by priority; true when one answered (it is used from now on). */
    private boolean recoverFromOutage(CallCancel cancel) {
        for (int i = 0; i < routes.size(); i++) {
            if (health.out(i) != null) continue;
            if (probe(i, cancel)) {
                outage = false;
                active = i;
                health.say(routes.get(i).describe() + " answers again: the agent thinks again and reads the messages that"
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
        if (cancel.cancelled()) return false;
        try {
            routes.get(index).client().probe(cancel);
            if (cancel.cancelled()) return false;
            health.answered(index);
            return true;
        } catch (LlmException e) {
            if (!cancel.cancelled()) health.probeFailed(index, e);
            return false;
        }
    }

    /** The switches since the last call, each said once. */
    @Override
    public List<String> notices() {
        List<String> out = health.drainSaid();
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
