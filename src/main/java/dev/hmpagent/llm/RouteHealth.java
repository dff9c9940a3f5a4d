package dev.hmpagent.llm;

import dev.hmpagent.text.Text;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.LongSupplier;

/**
 * The bookkeeping of {@link FailoverLlm}'s routes: what each LLM's state is (failing since when, given up, out for
 * good and why, when to probe it next), and the lines a person is told about them, each said once. The failover's call
 * loop decides which LLM thinks; this says which may, and why one may not. Tick thread only, but {@link #say} and
 * {@link #drainSaid} (read by whoever shows the notices).
 */
final class RouteHealth {
    private final List<FailoverLlm.Route> routes;
    private final BiPredicate<Integer, Duration> giveUp;
    private final Backoff probes;
    private final LongSupplier nanos;
    private final Health[] health;
    private final List<String> said = new ArrayList<>();   // guarded by itself

    RouteHealth(List<FailoverLlm.Route> routes, BiPredicate<Integer, Duration> giveUp, Backoff probes,
                LongSupplier nanos) {
        this.routes = routes;
        this.giveUp = giveUp;
        this.probes = probes;
        this.nanos = nanos;
        this.health = new Health[routes.size()];
        for (int i = 0; i < health.length; i++) health[i] = new Health();
    }

    /** One LLM's state. */
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

    /** Route {@code i} answered: it is well again. */
    void answered(int i) {
        health[i].answered();
    }

    /** Why route {@code i} is out for good (its quota, its key), or null when it is not. */
    String out(int i) {
        return health[i].out;
    }

    /** "is out because …" or "failed N times in a row": what is wrong with route {@code i}. */
    String trouble(int i) {
        Health h = health[i];
        return h.out != null ? "is out because " + h.out : "failed " + h.failures + " times in a row";
    }

    /**
     * Records a failed call of route {@code i}; rethrows what failing over cannot help (a request the server refused,
     * or a transient failure not yet given up on).
     */
    void failed(int i, LlmException e) {
        Health h = health[i];
        h.lastError = e.getMessage();
        if (e.quotaExhausted() || e.authRejected()) {
            h.out = outBecause(e);
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

    /** Records a failed probe of route {@code i}: out for good on a refusal, else probed again later. */
    void probeFailed(int i, LlmException e) {
        Health h = health[i];
        h.lastError = e.getMessage();
        if (e.quotaExhausted() || e.authRejected()) {
            h.out = outBecause(e);
            return;
        }
        h.failedProbes++;
        h.probeDue = true;
        h.probeAt = nanos.getAsLong() + probes.delay(h.failedProbes + 1, Optional.empty()).toNanos();
    }

    private static String outBecause(LlmException e) {
        return e.quotaExhausted() ? "its quota is exhausted" : "it rejected the key";
    }

    /** Whether given-up route {@code i} is due a probe now. */
    boolean probeDue(int i) {
        Health h = health[i];
        return h.out == null && h.probeDue && nanos.getAsLong() - h.probeAt >= 0;
    }

    /** The first LLM by priority that is neither given up nor out. */
    Optional<Integer> nextAvailable() {
        for (int i = 0; i < health.length; i++) {
            if (!health[i].down && health[i].out == null) return Optional.of(i);
        }
        return Optional.empty();
    }

    /** Whether every LLM is out for good. */
    boolean allOut() {
        return java.util.Arrays.stream(health).allMatch(h -> h.out != null);
    }

    /** The failure of a call in an outage: the first LLM's last error, said as no LLM answering. */
    LlmException noneAnswers() {
        StringBuilder why = new StringBuilder();
        for (int i = 0; i < routes.size(); i++) {
            if (i > 0) why.append("; ");
            why.append(routes.get(i).id()).append(": ").append(health[i].out != null ? "out, " + health[i].out
                    : firstLine(health[i].lastError));
        }
        if (allOut()) {
            String kind = health[0].out != null && health[0].out.startsWith("its quota") ? LlmException.INSUFFICIENT_QUOTA
                    : "http_401";
            return new FatalLlmException(kind, "no LLM can be used: " + why, null);
        }
        return new RetryableLlmException("outage", "no LLM answers (" + why + ")", null, null);
    }

    /** "main is out because its quota is exhausted; b is out because it rejected the key". */
    String outReasons() {
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

    /** Tells a person {@code line}, once, with the next notices. */
    void say(String line) {
        synchronized (said) {
            said.add(line);
        }
    }

    /** The lines said since the last drain; they are forgotten here. */
    List<String> drainSaid() {
        synchronized (said) {
            List<String> out = new ArrayList<>(said);
            said.clear();
            return out;
        }
    }
}
