package dev.hmpagent.process;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * Kills process trees: the root, its descendants, and every process that carries the tree's
 * environment marker (which finds grandchildren that left the tree by a double fork or
 * {@code setsid}). First SIGTERM to all, then SIGKILL to whatever is still alive after the grace,
 * looking again each round for processes forked meanwhile.
 *
 * <p>It watches for death by polling rather than {@link ProcessHandle#onExit()}: for a process that
 * is not our child, {@code onExit} polls from 300 ms upward and waits until the zombie is reaped,
 * which an orphan in a container without an init may never be. A zombie counts as dead here.
 */
final class ProcessTreeKiller {
    private static final int FORCED_ROUNDS = 5;
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Looks again at processes caught in {@code exec} ({@link ProcFs.Scan#unsure}): an exec takes microseconds. */
    static final int UNSURE_LOOKS = 20;

    /** One tree: its root (dead or alive) and the environment entry its members carry. */
    record Tree(ProcessHandle root, String markerEntry) {
        Tree {
            Objects.requireNonNull(root, "root");
            Objects.requireNonNull(markerEntry, "markerEntry");
        }
    }

    private final ProcFs proc;
    private final Duration grace;
    /** Waits before looking again at processes caught in {@code exec}. */
    private final Runnable pause;
    private final long self = ProcessHandle.current().pid();

    ProcessTreeKiller(ProcFs proc, Duration grace) {
        this(proc, grace, () -> LockSupport.parkNanos(POLL_NANOS));
    }

    ProcessTreeKiller(ProcFs proc, Duration grace, Runnable pause) {
        this.proc = Objects.requireNonNull(proc, "proc");
        this.grace = Objects.requireNonNull(grace, "grace");
        this.pause = Objects.requireNonNull(pause, "pause");
    }

    /**
     * Kills every member of the trees and returns how many processes it signalled. Returns when
     * they are all dead, or after {@value #FORCED_ROUNDS} rounds of SIGKILL that left some alive.
     */
    int kill(Collection<Tree> trees) {
        Set<ProcessHandle> victims = members(trees);
        Set<ProcessHandle> signalled = new HashSet<>(victims);
        victims.forEach(ProcessHandle::destroy);
        awaitDeath(victims);
        for (int round = 0; round < FORCED_ROUNDS; round++) {
            Set<ProcessHandle> left = living(signalled);
            left.addAll(members(trees));
            if (left.isEmpty()) {
                break;
            }
            left.forEach(ProcessHandle::destroyForcibly);
            signalled.addAll(left);
            awaitDeath(left);
        }
        return signalled.size();
    }

    /** Living members: the root and its descendants (while the root lives), and every marked process. */
    private Set<ProcessHandle> members(Collection<Tree> trees) {
        Set<ProcessHandle> found = new LinkedHashSet<>();
        for (Tree tree : trees) {
            if (tree.root().isAlive()) {
                found.add(tree.root());
                tree.root().descendants().forEach(found::add);
            }
        }
        Set<String> entries = trees.stream().map(Tree::markerEntry).collect(Collectors.toSet());
        for (long pid : marked(entries)) {
            ProcessHandle.of(pid).ifPresent(found::add);
        }
        found.removeIf(h -> h.pid() == self);
        return living(found);
    }

    /**
     * The pids carrying one of the entries, a process caught in {@code exec} looked at again until its environment
     * shows (or it is gone): a grandchild left running and caught so would otherwise escape the kill.
     */
    private Set<Long> marked(Set<String> entries) {
        ProcFs.Scan scan = proc.scan(entries);
        Set<Long> marked = new HashSet<>(scan.marked());
        Set<Long> unsure = scan.unsure();
        for (int look = 0; look < UNSURE_LOOKS && !unsure.isEmpty(); look++) {
            pause.run();
            ProcFs.Scan again = proc.scan(unsure, entries);
            marked.addAll(again.marked());
            unsure = again.unsure();
        }
        return marked;
    }

    private Set<ProcessHandle> living(Set<ProcessHandle> handles) {
        return handles.stream().filter(this::isLiving).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private boolean isLiving(ProcessHandle handle) {
        return handle.isAlive() && !proc.isZombie(handle.pid());
    }

    private void awaitDeath(Set<ProcessHandle> handles) {
        long deadline = System.nanoTime() + grace.toNanos();
        Set<ProcessHandle> left = living(handles);
        while (!left.isEmpty() && System.nanoTime() - deadline < 0 && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(POLL_NANOS);
            left = living(left);
        }
    }
}
