package dev.hmpagent.runtime;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.commands.CommandGate;
import dev.hmpagent.commands.PendingCommand;
import dev.hmpagent.safety.Fingerprint;
import dev.hmpagent.stagnation.Mesh;
import dev.hmpagent.store.PeersDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.text.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The reflex's mesh request as the agent carries it out (issue 37): the peers it may ask are those with a URL, not
 * blacklisted, that the {@code peer_message} gate ([a2a] allow/ask/deny, a child allowed) lets through without asking
 * anyone; the question is one pending {@code peer_message} row per peer, run by the executor like a command of the
 * tick's reply (the gate again, then the A2A client off the tick), so each answer is that row's result.
 */
final class MeshPeers implements Mesh {
    static final String TYPE = "peer_message";
    private final PeersDao peers;
    private final ProcessLogDao processLog;
    private final CommandGate gate;

    MeshPeers(Store store, CommandGate gate) {
        this.peers = store.tables().peers();
        this.processLog = store.tables().processLog();
        this.gate = Objects.requireNonNull(gate, "gate");
    }

    @Override
    public List<String> askable() {
        List<String> out = new ArrayList<>();
        for (PeersDao.Peer p : peers.all()) {
            if (!p.reachable() || p.status().equals("blacklisted")) continue;
            String name = p.name().isEmpty() ? p.id() : p.name();
            PendingCommand probe = new PendingCommand(0, 0, "", TYPE, args(name, ""), "", "");
            if (gate.check(probe).verdict() == CommandGate.Verdict.ALLOW) out.add(name);
        }
        return List.copyOf(out);
    }

    @Override
    public void ask(long tickId, List<String> names, String text) {
        int n = 0;
        for (String name : names) {
            String cmdId = "reflex-mesh-" + tickId + "-" + (++n);
            ObjectNode args = args(name, text);
            ObjectNode command = Json.mapper().createObjectNode();
            command.put("cmd_id", cmdId);
            command.put("type", TYPE);
            command.set("args", args);
            command.put("description", "anti-stagnation reflex: mesh request");
            processLog.enqueue(tickId, TYPE, cmdId, command.toString(), Fingerprint.ofCommand(TYPE, args));
        }
    }

    private static ObjectNode args(String peer, String text) {
        ObjectNode args = Json.mapper().createObjectNode();
        args.put("peer", peer);
        args.put("text", text);
        return args;
    }
}
