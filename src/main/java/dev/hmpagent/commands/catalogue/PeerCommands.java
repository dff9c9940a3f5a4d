package dev.hmpagent.commands.catalogue;

import dev.hmpagent.text.Json;
import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.SimpleCommand;
import static dev.hmpagent.commands.catalogue.RegistryArgs.MAX_TEXT;
import static dev.hmpagent.commands.catalogue.RegistryArgs.listing;
import static dev.hmpagent.commands.catalogue.RegistryArgs.oneLine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.hmpagent.store.PeersDao;
import dev.hmpagent.store.PeersDao.Peer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The HMP agents this one knows ({@code agent_peers}): {@link #all()} touch only the database; {@link #networked}
 * reach peers over A2A through a {@link PeerLink}: {@code peer_add} with a {@code url} fetches the agent card,
 * {@code peer_card} shows it, {@code peer_message} ({@link PeerMessage}) sends off the tick.
 */
public final class PeerCommands {
    static final int MAX_MESSAGE = 16_000;
    private static final ObjectMapper JSON = Json.mapper();
    private static final String ADD_EXAMPLE = "{\"name\": \"postman\", \"url\": \"http://10.0.0.5:7420\", "
            + "\"token_env\": \"POSTMAN_TOKEN\", \"tags\": \"friend\"}";
    /** The peer columns {@link #fields} reads. */
    private static final String FIELDS = "address?: string, addresses?: array, tags?: string, description?: string, "
            + "status?: string, capabilities?: any, pubkey?: string";

    private PeerCommands() { }

    /** The commands that touch only the database. */
    public static List<CommandHandler> all() {
        return List.of(peersList(), peerUpdate(), peerDelete());
    }

    /** The commands that may reach a peer through {@code link}: each in a transaction of its own, or off the tick. */
    public static List<CommandHandler> networked(PeerLink link) {
        return List.of(peerAdd(link), peerCard(link), new PeerMessage(link));
    }

    static CommandHandler peersList() {
        return SimpleCommand.informing("peers_list", "list the HMP agents you know (agent_peers)", "{}",
                (args, ctx) -> CommandOutcome.ok(listing("known agents (name (id) status [tags] url addresses: description):",
                        ctx.tables().peers().all().stream().map(PeerCommands::line).toList(),
                        "you know no other agents yet; peer_add adds one")));
    }

    /**
     * {@code peer_add}: with a url, the card is fetched first, outside any transaction ({@link CommandHandler#waits}:
     * a slow or unreachable address must not hold the file's write lock), then the peer is written in one.
     */
    static CommandHandler peerAdd(PeerLink link) {
        SimpleCommand add = new SimpleCommand("peer_add", "add an agent you know: with url (an A2A agent), its card is"
                + " fetched; its id is its DID, or its name", ADD_EXAMPLE, (args, ctx) -> {
            Optional<String> url = args.optionalText("url").map(String::strip).filter(s -> !s.isEmpty());
            Optional<String> tokenEnv = tokenEnv(args);
            Optional<PeerLink.Card> card;
            try {
                card = url.map(link::fetchCard);
            } catch (PeerLink.Failure e) {
                return CommandOutcome.error(e.code(), "peer_add: " + e.getMessage());
            }
            String name = args.optionalText("name").map(String::strip).filter(s -> !s.isEmpty())
                    .or(() -> card.map(PeerLink.Card::name).filter(s -> !s.isBlank()))
                    .orElseThrow(() -> args.bad("args.name is required (or a url whose card has a name)"));
            String id = args.optionalText("did").map(String::strip).filter(s -> !s.isEmpty()).orElse(name);
            if (id.length() > 200 || id.chars().anyMatch(Character::isWhitespace)) {
                throw args.bad("args.did must be one word of at most 200 characters, e.g. did:hmp:abc");
            }
            Map<String, String> fields = fields(args);
            fields.put("name", name);
            url.ifPresent(u -> fields.put("url", u));
            tokenEnv.ifPresent(t -> fields.put("token_env", t));
            card.ifPresent(c -> {
                fields.put("card", c.json());
                if (!c.description().isBlank()) fields.putIfAbsent("description", c.description());
            });
            return ctx.store().inTransaction(() -> added(ctx.tables().peers(), id, name, fields, card.isPresent()));
        }).takes("name?: string, did?: string, url?: string, token_env?: string, " + FIELDS);
        return new Waiting(add);
    }

    private static CommandOutcome added(PeersDao peers, String id, String name, Map<String, String> fields,
                                        boolean withCard) {
        for (String taken : List.of(id, name)) {
            Optional<Peer> existing = peers.find(taken);
            if (existing.isPresent()) {
                return CommandOutcome.error("peer_add: you already know " + existing.get().name() + " ("
                        + existing.get().id() + "); change it with peer_update");
            }
        }
        peers.add(id, fields);
        return CommandOutcome.ok("peer " + name + " (" + id + ") added" + (withCard ? ", its card fetched" : ""));
    }

    /** A command that {@link CommandHandler#waits}, otherwise {@code inner}. */
    private record Waiting(CommandHandler inner) implements CommandHandler {
        @Override public String type() { return inner.type(); }
        @Override public String summary() { return inner.summary(); }
        @Override public String argsExample() { return inner.argsExample(); }
        @Override public dev.hmpagent.commands.Signature signature() { return inner.signature(); }
        @Override public CommandOutcome execute(Args args, CommandContext context) { return inner.execute(args, context); }
        @Override public boolean informs() { return inner.informs(); }
        @Override public boolean waits() { return true; }
    }

    /** The NAME of the variable holding the peer's token, checked to be a name and not a token. */
    private static Optional<String> tokenEnv(Args args) {
        Optional<String> tokenEnv = args.optionalText("token_env").map(String::strip).filter(s -> !s.isEmpty());
        if (tokenEnv.isPresent() && !tokenEnv.get().matches("[A-Za-z_][A-Za-z0-9_]{0,99}")) {
            throw args.bad("args.token_env is the NAME of an environment variable (e.g. POSTMAN_TOKEN), never a token");
        }
        return tokenEnv;
    }

    static CommandHandler peerCard(PeerLink link) {
        return SimpleCommand.informing("peer_card", "show an A2A agent's card: what it does, its skills, streaming, "
                + "whether it needs a token", "{\"peer\": \"postman\"}", (args, ctx) -> {
            Optional<Peer> peer = ctx.tables().peers().find(args.requiredText("peer").strip());
            if (peer.isEmpty()) return unknown("peer_card", args, ctx);
            Peer p = peer.get();
            if (p.card().isEmpty()) {
                return CommandOutcome.notFound("peer_card: " + label(p) + " has no agent card"
                        + (p.url().isEmpty() ? " (no url: add one with peer_add's url)" : " stored"));
            }
            return CommandOutcome.ok(label(p) + " at " + p.url() + (p.tokenEnv().isEmpty() ? "" : " (token from $"
                    + p.tokenEnv() + ")") + "\n" + link.describe(p.card()));
        }).takes("peer: string");
    }

    static CommandHandler peerUpdate() {
        return new SimpleCommand("peer_update", "change what you know of an agent (name, address, tags, status, ...)",
                "{\"peer\": \"postman\", \"status\": \"online\", \"tags\": \"friend,mesh\"}", (args, ctx) -> {
            PeersDao peers = ctx.tables().peers();
            Optional<Peer> peer = peers.find(args.requiredText("peer").strip());
            if (peer.isEmpty()) return unknown("peer_update", args, ctx);
            Map<String, String> fields = fields(args);
            args.optionalText("name").map(String::strip).filter(s -> !s.isEmpty()).ifPresent(n -> fields.put("name", n));
            if (fields.isEmpty()) throw args.bad("give at least one field to change: name, address, tags, status, "
                    + "description, capabilities, pubkey");
            if (fields.containsKey("name")) {
                Optional<Peer> other = peers.find(fields.get("name")).filter(p -> !p.id().equals(peer.get().id()));
                if (other.isPresent()) {
                    return CommandOutcome.error("peer_update: another agent is already called " + fields.get("name"));
                }
            }
            peers.update(peer.get().id(), fields);
            return CommandOutcome.ok("peer " + peer.get().id() + " updated: " + String.join(", ", fields.keySet()));
        }).takes("peer: string, name?: string, " + FIELDS);
    }

    static CommandHandler peerDelete() {
        return new SimpleCommand("peer_delete", "forget an agent (messages already sent to it stay)",
                "{\"peer\": \"postman\"}", (args, ctx) -> {
            PeersDao peers = ctx.tables().peers();
            Optional<Peer> peer = peers.find(args.requiredText("peer").strip());
            if (peer.isEmpty()) return unknown("peer_delete", args, ctx);
            peers.delete(peer.get().id());
            return CommandOutcome.ok("peer " + peer.get().name() + " (" + peer.get().id() + ") forgotten");
        }).takes("peer: string");
    }

    /** The peer columns given in args; {@code address} (one) and {@code addresses} (a list) fill {@code addresses}. */
    private static Map<String, String> fields(Args args) {
        Map<String, String> fields = new LinkedHashMap<>(RegistryArgs.texts(args, List.of("tags", "description", "pubkey")));
        args.optionalText("status").map(String::strip).ifPresent(status -> {
            if (!PeersDao.STATUSES.contains(status)) {
                throw args.bad("args.status must be one of " + String.join(", ", new TreeSet<>(PeersDao.STATUSES)));
            }
            fields.put("status", status);
        });
        JsonNode capabilities = args.node().get("capabilities");
        if (capabilities != null && !capabilities.isNull()) {
            fields.put("capabilities", capabilities.isTextual() ? capabilities.asText() : capabilities.toString());
        }
        ArrayNode addresses = JSON.createArrayNode();
        for (String name : List.of("address", "addresses")) {
            JsonNode v = args.node().get(name);
            if (v == null || v.isNull()) continue;
            for (JsonNode item : v.isArray() ? v : JSON.createArrayNode().add(v)) {
                if (item.isTextual() && !item.asText().isBlank()) addresses.addObject().put("addr", item.asText().strip());
                else if (item.isObject() && item.path("addr").isTextual()) addresses.add(item);
                else throw args.bad("args." + name + " must be an address like tcp://host:port, or a list of them");
            }
        }
        if (!addresses.isEmpty()) fields.put("addresses", addresses.toString());
        return fields;
    }

    static CommandOutcome unknown(String type, Args args, CommandContext ctx) {
        List<String> known = ctx.tables().peers().all().stream().map(PeerCommands::label).toList();
        return CommandOutcome.error(type + ": you know no agent \"" + oneLine(args.requiredText("peer"), 60) + "\"; "
                + (known.isEmpty() ? "you know none yet (peer_add adds one)" : "known: " + String.join(", ",
                known.subList(0, Math.min(known.size(), 20))) + (known.size() > 20 ? ", …" : "")));
    }

    /** The name, and the id when it says more. */
    static String label(Peer p) {
        return p.name().isEmpty() || p.name().equals(p.id()) ? p.id() : p.name() + " (" + p.id() + ")";
    }

    private static String line(Peer p) {
        return "- " + label(p) + " " + p.status()
                + (p.tags().isEmpty() ? "" : " [" + p.tags() + "]")
                + (p.url().isEmpty() ? "" : " " + p.url())
                + (p.addresses().isEmpty() ? "" : " " + oneLine(p.addresses(), 120))
                + (p.lastSeen().isEmpty() ? "" : ", last seen " + p.lastSeen())
                + (p.description().isEmpty() ? "" : ": " + oneLine(p.description(), MAX_TEXT));
    }
}
