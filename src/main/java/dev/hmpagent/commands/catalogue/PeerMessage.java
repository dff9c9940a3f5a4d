package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.ExternalCommand;
import dev.hmpagent.commands.Signature;
import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.store.A2aTasksDao;
import dev.hmpagent.store.PeersDao;
import dev.hmpagent.store.PeersDao.Peer;
import dev.hmpagent.store.Tables;
import dev.hmpagent.text.Json;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code peer_message}: a message to a peer, sent over A2A off the tick (issue 37). The outgoing note stays in
 * {@code notes} as the history ({@code delivery_status} sent, then delivered or failed); the peer's answer arrives as
 * this command's result in a later tick, which wakes the LLM. The executor has asked the gate ({@code [a2a]
 * allow/ask/deny}) first. A message sent while this agent works on a peer's task carries that task's trace, then this
 * agent's id, so a loop between agents is refused where it would close.
 */
final class PeerMessage implements ExternalCommand {
    private final PeerLink link;

    PeerMessage(PeerLink link) {
        this.link = Objects.requireNonNull(link, "link");
    }

    @Override
    public String type() {
        return "peer_message";
    }

    @Override
    public String summary() {
        return "send a message to an agent you know (over A2A); its answer arrives in a later tick";
    }

    @Override
    public String argsExample() {
        return "{\"peer\": \"postman\", \"text\": \"...\"}";
    }

    @Override
    public Signature signature() {
        return Signature.parse("peer: string, text|message|content: string");
    }

    @Override
    public Optional<CommandOutcome> start(Args args, CommandContext ctx, long processLogId,
                                          Consumer<CommandOutcome> onDone) {
        Tables tables = ctx.tables();
        PeersDao peers = tables.peers();
        Optional<Peer> found = peers.find(args.requiredText("peer").strip());
        String text = args.requiredText("text");
        if (text.length() > PeerCommands.MAX_MESSAGE) {
            throw args.bad("args.text is over " + PeerCommands.MAX_MESSAGE + " characters");
        }
        if (found.isEmpty()) return Optional.of(PeerCommands.unknown(type(), args, ctx));
        Peer peer = found.get();
        if (peer.status().equals("blacklisted")) {
            return Optional.of(CommandOutcome.error(ErrorCode.EPERM, "peer_message: " + peer.name()
                    + " is blacklisted; nothing was sent"));
        }
        if (!peer.reachable()) {
            return Optional.of(CommandOutcome.error(ErrorCode.EINVAL, "peer_message: " + PeerCommands.label(peer)
                    + " has no url, so it cannot be reached over A2A; give it one with peer_update or agent peers add"));
        }
        Outbound out = ctx.store().inTransaction(() -> new Outbound(
                peers.addOutgoingMessage(peer.id(), text, ctx.llmId(), ctx.tickId()), taskTrace(tables.a2aTasks()),
                tables.identity().own()));
        peers.deliver(out.noteId(), "sent");   // before the send, whose thread marks it delivered or failed
        Optional<CommandOutcome> endedAtOnce = link.send(new PeerLink.Outgoing(processLogId, out.noteId(),
                PeerCommands.label(peer), peer.url(), peer.card(), peer.tokenEnv(), text, out.trace(), out.self()), onDone);
        if (endedAtOnce.isPresent()) peers.deliver(out.noteId(), "failed");
        return endedAtOnce;
    }

    /** The trace of the deepest A2A task in flight (the one a loop would reach first), {@code []} when none is. */
    private static String taskTrace(A2aTasksDao tasks) {
        return tasks.inFlight().stream().map(A2aTasksDao.Task::trace)
                .max(Comparator.comparingInt(PeerMessage::depth)).orElse("[]");
    }

    private static int depth(String traceJson) {
        try {
            return Json.mapper().readTree(traceJson).size();
        } catch (com.fasterxml.jackson.core.JsonProcessingException unreadable) {
            return 0;
        }
    }

    private record Outbound(long noteId, String trace, String self) { }
}
