package dev.hmpagent.a2a.client;

import dev.hmpagent.commands.CommandGate;
import dev.hmpagent.commands.PendingCommand;
import dev.hmpagent.config.A2aSection;
import dev.hmpagent.store.PeersDao;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The person's [a2a] rules as a {@link CommandGate} for {@code peer_message}, shaped as [mcp]'s: the peer is allowed,
 * asked or refused by the list naming it (by name or id); deny beats ask beats allow; named nowhere, it is asked (nobody
 * answers headless: refused). A child this agent spawned (its row's tags hold {@code child}) is allowed unless denied.
 * Any other command passes.
 */
public final class A2aGate implements CommandGate {
    static final String TYPE = "peer_message";
    private final A2aSection rules;
    private final PeersDao peers;
    /** Peers a person answered "always" for, this session. */
    private final Set<String> allowedForSession = ConcurrentHashMap.newKeySet();

    public A2aGate(A2aSection rules, PeersDao peers) {
        this.rules = Objects.requireNonNull(rules, "rules");
        this.peers = Objects.requireNonNull(peers, "peers");
    }

    @Override
    public Decision check(PendingCommand command) {
        if (!command.type().equals(TYPE)) return Decision.allow();
        String asked = command.args().path("peer").asText("").strip();
        if (asked.isEmpty()) return Decision.allow();   // no peer named: the command says so
        Optional<PeersDao.Peer> peer = peers.find(asked);
        Set<String> names = new LinkedHashSet<>(List.of(asked));
        peer.ifPresent(p -> {
            names.add(p.name());
            names.add(p.id());
        });
        String shown = peer.map(PeersDao.Peer::name).filter(n -> !n.isEmpty()).orElse(asked);
        for (String n : names) {
            if (rules.deny().contains(n)) {
                return Decision.deny("peer " + shown + " is in [a2a] deny of agent.toml (\"" + n + "\"); do not send"
                        + " to it again");
            }
        }
        if (names.stream().anyMatch(allowedForSession::contains)) return Decision.allow();
        for (String n : names) {
            if (rules.ask().contains(n)) {
                return Decision.ask(TYPE + " to " + shown + ": it is in [a2a] ask of agent.toml");
            }
        }
        if (names.stream().anyMatch(rules.allow()::contains)) return Decision.allow();
        if (peer.isPresent() && child(peer.get())) return Decision.allow();
        return Decision.ask(TYPE + " to " + shown + ": " + shown + " is in no list of [a2a]; add \"" + shown
                + "\" to [a2a] allow of agent.toml to send to it without asking");
    }

    private static boolean child(PeersDao.Peer p) {
        for (String tag : p.tags().split("[^A-Za-z0-9_-]+")) {
            if (tag.equals("child")) return true;
        }
        return false;
    }

    @Override
    public void allowForSession(PendingCommand command) {
        if (!command.type().equals(TYPE)) return;
        String asked = command.args().path("peer").asText("").strip();
        allowedForSession.add(asked);
        peers.find(asked).ifPresent(p -> allowedForSession.add(p.id()));
    }
}
