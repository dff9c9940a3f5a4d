package dev.hmpagent.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.a2a.ChildAgents;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.store.HaltFlag;
import dev.hmpagent.store.PeersDao;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code agent status --tree}: the agent and the children it spawned (issue 37), each child's own file read
 * read-only for its safety state and its runner, and their children in turn, indented two spaces a level.
 */
final class StatusTree {
    /** How deep the tree is followed: a child's child's … child, five levels down. */
    static final int MAX_DEPTH = 5;

    /** One agent of the tree: its name, URL (empty for the root), safety label, runner, and its children. */
    record Node(String name, String url, String safety, Optional<Long> runnerPid, List<Node> children) { }

    private StatusTree() {
    }

    /** The tree under the agent on {@code db}, read through {@code store} (open read-only). */
    static Node of(Path db, Store store, Clock clock) {
        return node(db.getFileName().toString(), "", db, store, clock, 0);
    }

    private static Node node(String name, String url, Path db, Store store, Clock clock, int depth) {
        HaltFlag flag = new HaltFlag(db);
        String safety = flag.raised() ? "STOPPED(halt) by " + flag.file().getFileName()
                : new SafetyControl(store).current().label();
        RunnerLock lock = RunnerLock.forThisProcess(store);
        Optional<Long> pid = lock.seen().filter(s -> lock.live(s.holder())).map(s -> s.holder().pid());
        List<Node> children = new ArrayList<>();
        if (depth < MAX_DEPTH) {
            for (PeersDao.Child c : store.tables().peers().children()) children.add(child(c, db, clock, depth + 1));
        }
        return new Node(name, url, safety, pid, List.copyOf(children));
    }

    private static Node child(PeersDao.Child c, Path parentDb, Clock clock, int depth) {
        Path db = ChildAgents.db(parentDb, c.name());
        if (!Files.isRegularFile(db)) {
            return new Node(c.name(), c.url(), "no file yet", Optional.empty(), List.of());
        }
        try (Store store = Store.openReadOnly(db, clock)) {
            return node(c.name(), c.url(), db, store, clock, depth);
        } catch (RuntimeException e) {
            return new Node(c.name(), c.url(), "unreadable (" + dev.hmpagent.text.Text.oneLine(e.getMessage(), 80) + ")",
                    Optional.empty(), List.of());
        }
    }

    /** The tree as lines, two spaces of indentation a level. */
    static List<String> lines(Node root) {
        List<String> out = new ArrayList<>();
        lines(root, 0, out);
        return out;
    }

    private static void lines(Node n, int depth, List<String> out) {
        out.add("  ".repeat(depth) + n.name() + ": " + n.safety() + ", "
                + n.runnerPid().map(p -> "running (pid " + p + ")").orElse("not running")
                + (n.url().isEmpty() ? "" : " " + n.url()));
        n.children().forEach(c -> lines(c, depth + 1, out));
    }

    /** The children of {@code n} into {@code array}, each {@code {"name", "url", "safety", "pid", "children"}}. */
    static void json(Node n, ArrayNode array) {
        for (Node c : n.children()) {
            ObjectNode o = array.addObject().put("name", c.name()).put("url", c.url()).put("safety", c.safety());
            if (c.runnerPid().isPresent()) o.put("pid", c.runnerPid().get());
            else o.putNull("pid");
            json(c, o.putArray("children"));
        }
    }
}
