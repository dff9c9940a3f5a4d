package dev.hmpagent.cli;

import dev.hmpagent.a2a.client.A2aClient;
import dev.hmpagent.a2a.client.AgentCard;
import dev.hmpagent.commands.catalogue.PeerLink;
import dev.hmpagent.runtime.Launch;
import dev.hmpagent.store.PeersDao;
import dev.hmpagent.store.PeersDao.Peer;
import dev.hmpagent.store.Store;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code agent peers}: the agents this one knows ({@code agent_peers}) and reaches over A2A (issue 37): list them, add
 * one by its URL (its agent card is fetched and checked), show a card, remove one. A token is never given here: only
 * the NAME of the environment variable that holds it, read by the agent when it sends.
 */
@Command(name = "peers", mixinStandardHelpOptions = true,
        description = {"List, add, show or remove the agents this one talks to over A2A.",
                "Without an action: list them."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent peers                                         # list",
                "  agent peers add helper http://127.0.0.1:7421",
                "  agent peers add ops https://ops.example:7420 --token-env OPS_A2A_TOKEN",
                "  agent peers card helper",
                "  agent peers remove helper"})
final class PeersCommand extends Subcommand {
    @Parameters(arity = "0..3", paramLabel = "ACTION", description = "list | add NAME URL | card NAME | remove NAME")
    List<String> words = List.of();

    @Option(names = "--token-env", paramLabel = "VAR",
            description = "The NAME of the environment variable holding the peer's bearer token (never the token).")
    String tokenEnv;

    PeersCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() {
        String action = words.isEmpty() ? "list" : words.get(0);
        int wanted = switch (action) {
            case "list" -> 1;
            case "add" -> 3;
            case "card", "remove" -> 2;
            default -> throw usage("unknown action \"" + action + "\"; use list, add NAME URL, card NAME or remove NAME");
        };
        if (!words.isEmpty() && words.size() != wanted) {
            throw usage("agent peers " + action + " takes " + (wanted - 1) + " argument" + (wanted == 2 ? "" : "s")
                    + (action.equals("add") ? ": NAME URL" : ": NAME"));
        }
        if (tokenEnv != null && !tokenEnv.matches("[A-Za-z_][A-Za-z0-9_]{0,99}")) {
            throw usage("--token-env is the NAME of an environment variable (e.g. OPS_A2A_TOKEN), never the token");
        }
        try (Store store = Store.open(existingDb(), launch().clock())) {
            PeersDao peers = store.tables().peers();
            return switch (action) {
                case "add" -> add(peers, words.get(1), words.get(2));
                case "card" -> card(peers, words.get(1));
                case "remove" -> remove(peers, words.get(1));
                default -> list(peers);
            };
        }
    }

    private int list(PeersDao peers) {
        List<Peer> all = peers.all();
        if (all.isEmpty()) say("no peers yet; add one: agent peers add NAME URL");
        for (Peer p : all) {
            say(p.name() + (p.name().equals(p.id()) ? "" : " (" + p.id() + ")") + "  " + p.status()
                    + "  " + (p.url().isEmpty() ? "(no url)" : p.url())
                    + (p.tokenEnv().isEmpty() ? "" : "  token from $" + p.tokenEnv())
                    + (p.description().isEmpty() ? "" : "  " + dev.hmpagent.text.Text.oneLine(p.description(), 80)));
        }
        return ExitCodes.OK;
    }

    private int add(PeersDao peers, String name, String url) {
        if (peers.find(name).isPresent()) {
            err().println("agent: a peer called " + name + " exists already; remove it first (agent peers remove "
                    + name + ")");
            return ExitCodes.USAGE;
        }
        AgentCard card;
        try {
            card = new A2aClient(A2aClient.SHORT_CALL, launch().env()::get).fetchCard(url);
        } catch (PeerLink.Failure e) {
            err().println("agent: " + e.getMessage());
            return ExitCodes.FAILURE;
        }
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("name", name);
        fields.put("url", url.strip());
        fields.put("card", card.json());
        if (!card.description().isBlank()) fields.put("description", card.description());
        if (tokenEnv != null) fields.put("token_env", tokenEnv);
        peers.add(name, "cli", fields);
        say("peer " + name + " added: " + (card.name().isEmpty() ? "(no name)" : card.name()) + " at " + card.endpoint()
                + (card.streaming() ? ", streaming" : ""));
        if (card.needsToken() && tokenEnv == null) {
            say("its card asks for a token: add it again with --token-env VAR, VAR holding the token");
        } else if (tokenEnv != null && launch().env().get(tokenEnv) == null) {
            say("note: " + tokenEnv + " is not set here; the agent reads it from its own environment when it sends");
        }
        return ExitCodes.OK;
    }

    private int card(PeersDao peers, String name) {
        Optional<Peer> peer = peers.find(name);
        if (peer.isEmpty()) return unknown(name);
        if (peer.get().card().isEmpty()) {
            err().println("agent: " + name + " has no agent card (no url); add it with agent peers add NAME URL");
            return ExitCodes.FAILURE;
        }
        say(peer.get().url() + (peer.get().tokenEnv().isEmpty() ? "" : "  (token from $" + peer.get().tokenEnv() + ")"));
        try {
            AgentCard.parse(peer.get().card(), "the stored card").describe().lines().forEach(this::say);
        } catch (PeerLink.Failure e) {
            err().println("agent: " + e.getMessage());
            return ExitCodes.FAILURE;
        }
        return ExitCodes.OK;
    }

    private int remove(PeersDao peers, String name) {
        Optional<Peer> peer = peers.find(name);
        if (peer.isEmpty()) return unknown(name);
        peers.delete(peer.get().id());
        say("peer " + peer.get().name() + " removed (messages already sent to it stay)");
        return ExitCodes.OK;
    }

    private int unknown(String name) {
        err().println("agent: no peer called " + name + "; agent peers lists them");
        return ExitCodes.USAGE;
    }

    private CommandLine.ParameterException usage(String line) {
        return new CommandLine.ParameterException(spec.commandLine(), line);
    }
}
