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
 * The HMP agents this one knows ({@code agent_peers}) and messages to them: {@code peer_message} queues an outgoing
 * note with delivery {@code pending} (delivery over the network is later work).
 */
public final class PeerCommands {
    static final int MAX_MESSAGE = 16_000;
    private static final ObjectMapper JSON = Json.mapper();
    private static final String ADD_EXAMPLE = "{\"name\": \"postman\", \"did\": \"did:hmp:abc\", "
            + "\"address\": \"tcp://10.0.0.5:4000\", \"tags\": \"friend\", \"description\": \"...\"}";
    /** The peer columns {@link #fields} reads. */
    private static final String FIELDS = "address?: string, addresses?: array, tags?: string, description?: string, "
            + "status?: string, capabilities?: any, pubkey?: string";

    private PeerCommands() { }

    public static List<CommandHandler> all() {
        return List.of(peersList(), peerAdd(), peerUpdate(), peerDelete(), peerMessage());
    }

    static CommandHandler peersList() {
        return SimpleCommand.informing("peers_list", "list the HMP agents you know (agent_peers)", "{}",
                (args, ctx) -> CommandOutcome.ok(listing("known agents (name (id) status [tags] addresses: description):",
                        ctx.tables().peers().all().stream().map(PeerCommands::line).toList(),
                        "you know no other agents yet; peer_add adds one")));
    }

    static CommandHandler peerAdd() {
        return new SimpleCommand("peer_add", "add an HMP agent you know; its id is its DID, or its name without one",
                ADD_EXAMPLE, (args, ctx) -> {
            String name = args.requiredText("name").strip();
            String id = args.optionalText("did").map(String::strip).filter(s -> !s.isEmpty()).orElse(name);
            if (id.length() > 200 || id.chars().anyMatch(Character::isWhitespace)) {
                throw args.bad("args.did must be one word of at most 200 characters, e.g. did:hmp:abc");
            }
            PeersDao peers = ctx.tables().peers();
            for (String taken : List.of(id, name)) {
                Optional<Peer> existing = peers.find(taken);
                if (existing.isPresent()) {
                    return CommandOutcome.error("peer_add: you already know " + existing.get().name() + " ("
                            + existing.get().id() + "); change it with peer_update");
                }
            }
            Map<String, String> fields = fields(args);
            fields.put("name", name);
            peers.add(id, fields);
            return CommandOutcome.ok("peer " + name + " (" + id + ") added");
        }).takes("name: string, did?: string, " + FIELDS);
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

    static CommandHandler peerMessage() {
        return new SimpleCommand("peer_message", "send a message to an agent you know (queued for delivery)",
                "{\"peer\": \"postman\", \"text\": \"...\"}", (args, ctx) -> {
            PeersDao peers = ctx.tables().peers();
            Optional<Peer> peer = peers.find(args.requiredText("peer").strip());
            String text = args.requiredText("text");
            if (text.length() > MAX_MESSAGE) throw args.bad("args.text is over " + MAX_MESSAGE + " characters");
            if (peer.isEmpty()) return unknown("peer_message", args, ctx);
            if (peer.get().status().equals("blacklisted")) {
                return CommandOutcome.error("peer_message: " + peer.get().name() + " is blacklisted; nothing was sent");
            }
            long id = peers.addOutgoingMessage(peer.get().id(), text, ctx.llmId(), ctx.tickId());
            return CommandOutcome.ok("message to " + peer.get().name() + " queued (note " + id + ", delivery pending)");
        }).takes("peer: string, text|message|content: string");
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

    private static CommandOutcome unknown(String type, Args args, CommandContext ctx) {
        List<String> known = ctx.tables().peers().all().stream().map(PeerCommands::label).toList();
        return CommandOutcome.error(type + ": you know no agent \"" + oneLine(args.requiredText("peer"), 60) + "\"; "
                + (known.isEmpty() ? "you know none yet (peer_add adds one)" : "known: " + String.join(", ",
                known.subList(0, Math.min(known.size(), 20))) + (known.size() > 20 ? ", …" : "")));
    }

    /** The name, and the id when it says more. */
    private static String label(Peer p) {
        return p.name().isEmpty() || p.name().equals(p.id()) ? p.id() : p.name() + " (" + p.id() + ")";
    }

    private static String line(Peer p) {
        return "- " + label(p) + " " + p.status()
                + (p.tags().isEmpty() ? "" : " [" + p.tags() + "]")
                + (p.addresses().isEmpty() ? "" : " " + oneLine(p.addresses(), 120))
                + (p.lastSeen().isEmpty() ? "" : ", last seen " + p.lastSeen())
                + (p.description().isEmpty() ? "" : ": " + oneLine(p.description(), MAX_TEXT));
    }
}
