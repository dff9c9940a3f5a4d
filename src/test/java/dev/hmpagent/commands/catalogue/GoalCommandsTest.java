package dev.hmpagent.commands.catalogue;

import static dev.hmpagent.commands.catalogue.CommandFixture.context;
import dev.hmpagent.commands.CommandRun;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.GoalsDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.WorkItem;
import dev.hmpagent.store.WorkItem.Kind;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GoalCommandsTest {
    @TempDir Path dir;
    CommandFixture f;
    GoalsDao goals;

    @BeforeEach
    void open() {
        f = new CommandFixture(dir);
        goals = new GoalsDao(f.store);
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void goals_and_tasks_are_added_and_a_task_under_a_missing_goal_is_refused() {
        List<CommandRun> runs = f.run(1, """
                [{"type": "goal_add", "args": {"title": "learn the user's name", "priority": 2}},
                 {"type": "task_add", "args": {"title": "ask for it", "goal_id": 1, "description": "politely"}},
                 {"type": "task_add", "args": {"title": "orphan"}},
                 {"type": "task_add", "args": {"title": "lost", "goal_id": 9}}]""");
        assertThat(runs).extracting(CommandRun::result).containsExactly("goal 1 added (active)",
                "task 1 added (open) under goal 1", "task 2 added (open)",
                "task_add: no goal with id 9; goals_list or context 6 shows the ids");
        assertThat(goals.get(Kind.TASK, 1)).hasValueSatisfying(t -> {
            assertThat(t.goalId()).isEqualTo(1);
            assertThat(t.description()).isEqualTo("politely");
            assertThat(t.status()).isEqualTo("open");
        });
        assertThat(context(f.prompt(2), 6)).contains("[goal 1, active, priority 2] learn the user's name")
                .contains("[task 1 of goal 1, open, priority 0] ask for it: politely").contains("[task 2, open, priority 0] orphan");
    }

    @Test
    void done_without_evidence_changes_nothing_and_returns_the_reminder_as_a_warning() {
        f.one(1, "goal_add", "{\"title\": \"ship it\"}");
        CommandRun bare = f.one(2, "goal_update", "{\"id\": 1, \"status\": \"done\", \"priority\": 5}");

        assertThat(bare.status()).isEqualTo("warning");
        assertThat(bare.result()).isEqualTo("goal 1 is still active and nothing was changed: name the process_log rows "
                + "that show it is done in args.evidence (ids or cmd_ids of successful rows, e.g. from context 2)");
        assertThat(bare.failure()).as("a reminder, not a failure").isEmpty();
        assertThat(goals.get(Kind.GOAL, 1)).hasValueSatisfying(g -> {
            assertThat(g.status()).isEqualTo("active");
            assertThat(g.priority()).isZero();
        });
        assertThat(context(f.prompt(3), 2)).contains("warning: ").contains("name the process_log rows that show it is done");
    }

    @Test
    void done_with_evidence_of_failed_missing_or_bookkeeping_rows_is_refused_too() {
        f.one(1, "goal_add", "{\"title\": \"ship it\"}");
        f.one(2, "memory_delete", "{\"id\": 99}");   // cmd c-2: an error row
        CommandRun bad = f.one(3, "goal_update", "{\"id\": 1, \"status\": \"done\", \"evidence\": [\"c-2\", \"nope\", \"c-1\"]}");
        assertThat(bad.status()).isEqualTo("warning");
        assertThat(bad.result()).endsWith("; not a successful row: c-2, nope, c-1");
        assertThat(goals.get(Kind.GOAL, 1).orElseThrow().status()).isEqualTo("active");
    }

    @Test
    void done_with_evidence_changes_the_status_and_keeps_the_rows_it_named() {
        f.run(1, """
                [{"cmd_id": "g", "type": "goal_add", "args": {"title": "remember the mesh"}},
                 {"cmd_id": "t", "type": "task_add", "args": {"title": "write it down", "goal_id": 1}}]""");
        f.one(2, "diary_entry", "{\"text\": \"the mesh\"}");                     // cmd c-2, ok
        f.one(3, "memory_add", "{\"content\": \"mesh\"}");                       // cmd c-3, ok, closed later
        ProcessLogDao log = new ProcessLogDao(f.store);
        long memoryRow = log.byTick(3).get(0).id();
        f.store.inTransaction(() -> {
            log.markSeen(List.of(memoryRow), 4);
            log.closeOkSeenAtOrBefore(4);
        });

        CommandRun task = f.one(5, "task_update", "{\"id\": 1, \"status\": \"done\", \"evidence\": [\"c-2\"]}");
        CommandRun goal = f.one(6, "goal_update", "{\"id\": 1, \"status\": \"done\", \"evidence\": [\"c-2\", " + memoryRow + "]}");

        long diaryRow = log.byTick(2).get(0).id();
        assertThat(task.status()).isEqualTo("ok");
        assertThat(task.result()).isEqualTo("task 1 done (evidence: process_log " + diaryRow + " diary_entry)");
        assertThat(goal.result()).isEqualTo("goal 1 done (evidence: process_log " + diaryRow + " diary_entry, "
                + memoryRow + " memory_add)");
        assertThat(goals.get(Kind.GOAL, 1)).hasValueSatisfying(g -> {
            assertThat(g.status()).isEqualTo("done");
            assertThat(g.evidence()).containsExactly(diaryRow, memoryRow);
        });
        assertThat(context(f.prompt(7), 6)).as("finished and not pinned: no longer shown").doesNotContain("remember the mesh")
                .doesNotContain("write it down");
        assertThat(f.one(8, "goals_list", "{\"status\": \"done\"}").result()).contains("[goal 1, done, priority 0, evidence ["
                + diaryRow + ", " + memoryRow + "]] remember the mesh");
    }

    @Test
    void other_updates_need_no_evidence_and_a_bad_status_is_named() {
        f.one(1, "task_add", "{\"title\": \"a\"}");
        List<CommandRun> runs = f.run(2, """
                [{"type": "task_update", "args": {"id": 1, "status": "in_progress", "priority": 3}},
                 {"type": "task_update", "args": {"id": 1, "status": "finished"}},
                 {"type": "task_update", "args": {"id": 5, "priority": 1}}]""");
        assertThat(runs).extracting(CommandRun::status).containsExactly("ok", "error", "error");
        assertThat(runs.get(0).result()).isEqualTo("task 1 updated: in_progress, priority 3");
        assertThat(runs.get(1).result()).contains("args.status must be one of open, in_progress, blocked, done, dropped");
        assertThat(goals.get(Kind.TASK, 1)).map(WorkItem::status).contains("in_progress");
    }

    @Test
    void pinned_goals_and_tasks_come_first_in_context_6_every_tick_and_lists_inform() {
        f.run(1, """
                [{"type": "goal_add", "args": {"title": "urgent goal", "priority": 9}},
                 {"type": "goal_add", "args": {"title": "quiet goal", "priority": 0}},
                 {"type": "task_add", "args": {"title": "big task", "priority": 5}},
                 {"type": "task_add", "args": {"title": "small task", "priority": 1}},
                 {"type": "memory_add", "args": {"content": "a note to self"}}]""");
        f.run(2, "[{\"type\": \"goal_pin\", \"args\": {\"id\": 2}}, {\"type\": \"task_pin\", \"args\": {\"id\": 2}}]");

        for (long tick = 3; tick <= 4; tick++) {
            String six = context(f.prompt(tick), 6);
            assertThat(six).containsSubsequence("[goal 2, pinned, active, priority 0] quiet goal",
                    "[goal 1, active, priority 9] urgent goal", "[task 2, pinned, open, priority 1] small task",
                    "[task 1, open, priority 5] big task", "a note to self");
        }
        f.one(5, "goal_unpin", "{\"id\": 2}");
        assertThat(context(f.prompt(6), 6)).containsSubsequence("urgent goal", "quiet goal");

        CommandRun list = f.one(7, "tasks_list", "{\"status\": \"open\"}");
        assertThat(list.result()).isEqualTo("""
                2 open tasks (pinned first, then by priority):
                - [task 2, pinned, open, priority 1] small task
                - [task 1, open, priority 5] big task""");
        assertThat(f.registry.find("tasks_list").orElseThrow().informs()).isTrue();
        assertThat(f.registry.find("goal_pin").orElseThrow().informs()).isFalse();
        assertThat(f.one(8, "goal_pin", "{\"id\": 42}").result()).isEqualTo("goal_pin: no goal with id 42; goals_list or "
                + "context 6 shows the ids");
        assertThat(new ProcessLogDao(f.store).byTick(7)).extracting(ProcessRow::status).containsExactly("ok");
    }
}
