package dev.hmpagent.a2a.server;

import dev.hmpagent.config.A2aSection;
import dev.hmpagent.config.ConfigException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Who may call, and how often: without {@code a2a.tokens} every caller on the loopback is {@code loopback} (and only a
 * loopback address may be served); with them a request must carry {@code Authorization: Bearer <token>}, compared in
 * constant time with each configured token, and the caller is the name of the variable that holds it. Each caller
 * sends at most {@code a2a.rate_per_minute} messages in a minute.
 */
final class Callers {
    static final String LOOPBACK = "loopback";

    /** Token bytes by the name of the variable that holds them. */
    private final Map<String, byte[]> tokens;
    private final int perMinute;
    private final Clock clock;
    private final Map<String, long[]> windows = new HashMap<>();

    private Callers(Map<String, byte[]> tokens, int perMinute, Clock clock) {
        this.tokens = tokens;
        this.perMinute = perMinute;
        this.clock = clock;
    }

    /**
     * The callers of {@code config} with the tokens read from {@code env}; throws ConfigException (one line: what is
     * wrong, what to do) when a named variable is unset or empty, or a non-loopback address is served without tokens.
     */
    static Callers of(A2aSection config, String host, Map<String, String> env, Clock clock) {
        Map<String, byte[]> tokens = new LinkedHashMap<>();
        for (String name : config.tokens()) {
            String value = env.get(name);
            if (value == null || value.isBlank()) {
                throw new ConfigException("a2a.tokens names " + name + ", which is not set: export " + name
                        + "=<a long random token> before starting the agent, or take it out of a2a.tokens");
            }
            tokens.put(name, value.strip().getBytes(StandardCharsets.UTF_8));
        }
        if (tokens.isEmpty() && !loopback(host)) {
            throw new ConfigException("a2a.listen = \"" + config.listen() + "\" is not a loopback address and no"
                    + " a2a.tokens are set: anyone who reaches it could talk to the agent; set a2a.tokens (names of"
                    + " variables holding bearer tokens) or listen on 127.0.0.1");
        }
        return new Callers(tokens, config.ratePerMinute(), Objects.requireNonNull(clock, "clock"));
    }

    static boolean loopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    boolean needTokens() {
        return !tokens.isEmpty();
    }

    /** The caller an {@code Authorization} header names, or empty when it names none (a 401). */
    Optional<String> who(String authorization) {
        if (tokens.isEmpty()) return Optional.of(LOOPBACK);
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) return Optional.empty();
        byte[] given = authorization.substring(7).strip().getBytes(StandardCharsets.UTF_8);
        String found = null;
        for (Map.Entry<String, byte[]> e : tokens.entrySet()) {   // every token compared: the time says nothing
            if (MessageDigest.isEqual(given, e.getValue()) && found == null) found = e.getKey();
        }
        return Optional.ofNullable(found);
    }

    /** Counts one message of {@code caller}: false when it is over its rate in this minute. */
    synchronized boolean admit(String caller) {
        long minute = clock.millis() / 60_000;
        long[] w = windows.computeIfAbsent(caller, c -> new long[] {minute, 0});
        if (w[0] != minute) {
            w[0] = minute;
            w[1] = 0;
        }
        return ++w[1] <= perMinute;
    }

    /** Seconds until the caller's minute is over. */
    long retryAfterSeconds() {
        return 60 - (clock.millis() / 1000) % 60;
    }
}
