package dev.hmpagent.stagnation;

import dev.hmpagent.store.GoalsDao;
import dev.hmpagent.store.ReflexDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.WorkItem;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** The task switch: the pinned task frozen (blocked) for a while and another pinned, then the frozen one again. */
final class TaskSwitch {
    private static final String STRATEGY = "Task switch";

    private final GoalsDao goals;
    private final ReflexDao reflex;
    private final Clock clock;
    private final Duration freeze;

    TaskSwitch(Store store, Clock clock, Duration freeze) {
        this.goals = store.tables().goals();
        this.reflex = store.tables().reflex();
        this.clock = Objects.requireNonNull(clock, "clock");
        this.freeze = Objects.requireNonNull(freeze, "freeze");
    }

    /** Whether a switch can work now: no task frozen yet, a pinned task and another one to work on. */
    boolean applicable(ReflexDao.State state) {
        return state.frozenTaskId() == 0 && pinnedTask().isPresent() && otherTask(0).isPresent();
    }

    /** Freezes the pinned task and pins another; returns what was done, or empty when there is no pair. */
    Optional<String> switchAway(Step step, long until) {
        Optional<WorkItem> pinned = pinnedTask();
        if (pinned.isEmpty()) return Optional.empty();
        Optional<WorkItem> other = otherTask(pinned.get().id());
        if (other.isEmpty()) return Optional.empty();
        WorkItem a = pinned.get();
        WorkItem b = other.get();
        Instant back = clock.instant().plus(freeze);
        goals.update(WorkItem.Kind.TASK, a.id(), "blocked", null, null, null, null);
        goals.unpin(WorkItem.Kind.TASK, a.id());
        goals.pin(WorkItem.Kind.TASK, b.id(), step.tickId);
        step.state = step.state.withTaskSwitch(a.id(), a.status(), b.id(), back.toString());
        reflex.addItem(step.tickId, STRATEGY, 1, "task switch: task " + a.id() + " \"" + a.title() + "\" is frozen"
                + " (blocked) until " + back + "; work on task " + b.id() + " \"" + b.title() + "\" now. You will be"
                + " brought back to task " + a.id() + ".", until);
        return Optional.of("froze task " + a.id() + " until " + back + " and pinned task " + b.id());
    }

    /** When the time is up: the frozen task is pinned again with its old status, and a reminder says so. */
    void returnWhenDue(Step step) {
        ReflexDao.State state = step.state;
        if (state.frozenTaskId() == 0 || clock.instant().isBefore(Instant.parse(state.returnAt()))) return;
        long frozen = state.frozenTaskId();
        goals.update(WorkItem.Kind.TASK, frozen, state.frozenStatus() == null ? "open" : state.frozenStatus(), null,
                null, null, null);
        goals.pin(WorkItem.Kind.TASK, frozen, step.tickId);
        if (state.switchedTaskId() != 0) goals.unpin(WorkItem.Kind.TASK, state.switchedTaskId());
        String title = goals.get(WorkItem.Kind.TASK, frozen).map(WorkItem::title).orElse("?");
        reflex.addItem(step.tickId, STRATEGY, 1, "task switch over: back to task " + frozen + " \"" + title
                + "\", which you froze to get out of a loop; look at it with what you did meanwhile.",
                step.tickId + StagnationReflex.ITEM_TICKS);
        step.lines.add("anti-stagnation reflex: back to task " + frozen + " after the task switch");
        step.state = state.withTaskSwitch(0, null, 0, null);
    }

    private Optional<WorkItem> pinnedTask() {
        return goals.forContext(WorkItem.Kind.TASK, 20).stream()
                .filter(w -> w.pinned() && !WorkItem.Kind.FINISHED.contains(w.status())).findFirst();
    }

    private Optional<WorkItem> otherTask(long except) {
        return goals.forContext(WorkItem.Kind.TASK, 20).stream()
                .filter(w -> !w.pinned() && w.id() != except && !WorkItem.Kind.FINISHED.contains(w.status())
                        && !w.status().equals("blocked"))
                .findFirst();
    }
}
