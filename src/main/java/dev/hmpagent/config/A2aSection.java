package dev.hmpagent.config;

import java.util.List;
import java.util.Objects;

/**
 * The [a2a] section: the agent as a peer of other agents over the Agent2Agent protocol (issue 37). {@code listen}
 * ("host:port", empty: no server) is where it serves its agent card and JSON-RPC; {@code tokens} names the environment
 * variables whose values are the bearer tokens a caller may present (the variable's name is the caller's name); without
 * tokens only a loopback address may be served. {@code allow}, {@code ask} and {@code deny} name the peers
 * {@code peer_message} may send to (deny beats ask beats allow; a peer named nowhere is asked, and headless nobody
 * answers, so it is refused; a child the agent spawned is allowed). A caller's message is at most
 * {@code maxMessageBytes}, a caller sends at most {@code ratePerMinute} messages a minute, a message that passed more
 * than {@code maxDepth} agents is refused, and at most {@code maxChildren} children are spawned. A caller's work counts
 * against the budget it causes: once its tasks cost the agent {@code callerTokensPerDay} tokens in 24 hours (what the
 * agent's LLM calls cost while each was open), its next message is refused until the day has passed.
 */
public record A2aSection(String listen, List<String> tokens, List<String> allow, List<String> ask, List<String> deny,
                         int maxMessageBytes, int ratePerMinute, int maxDepth, int maxChildren,
                         long callerTokensPerDay) {
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024;
    /** What one caller's tasks may cost the agent in 24 hours, in tokens, before its next message is refused. */
    public static final long DEFAULT_CALLER_TOKENS_PER_DAY = 200_000;
    public static final int DEFAULT_RATE_PER_MINUTE = 60;
    public static final int DEFAULT_MAX_DEPTH = 4;
    public static final int DEFAULT_MAX_CHILDREN = 3;

    public A2aSection {
        Objects.requireNonNull(listen, "listen");
        tokens = List.copyOf(tokens);
        allow = List.copyOf(allow);
        ask = List.copyOf(ask);
        deny = List.copyOf(deny);
    }

    /** The caps but the callers' daily tokens, that at its default. */
    public A2aSection(String listen, List<String> tokens, List<String> allow, List<String> ask, List<String> deny,
                      int maxMessageBytes, int ratePerMinute, int maxDepth, int maxChildren) {
        this(listen, tokens, allow, ask, deny, maxMessageBytes, ratePerMinute, maxDepth, maxChildren,
                DEFAULT_CALLER_TOKENS_PER_DAY);
    }

    /** No server, no token, no rule, the default caps. */
    public static A2aSection none() {
        return new A2aSection("", List.of(), List.of(), List.of(), List.of(), DEFAULT_MAX_MESSAGE_BYTES,
                DEFAULT_RATE_PER_MINUTE, DEFAULT_MAX_DEPTH, DEFAULT_MAX_CHILDREN);
    }

    /** Whether the agent serves A2A. */
    public boolean serves() {
        return !listen.isBlank();
    }

    /** The same section with bearer tokens in {@code names} (variable names). */
    public A2aSection withTokens(List<String> names) {
        return new A2aSection(listen, names, allow, ask, deny, maxMessageBytes, ratePerMinute, maxDepth, maxChildren,
                callerTokensPerDay);
    }

    /** The same section listening on {@code address} ("host:port"). */
    public A2aSection listening(String address) {
        return new A2aSection(address, tokens, allow, ask, deny, maxMessageBytes, ratePerMinute, maxDepth, maxChildren,
                callerTokensPerDay);
    }
}
