-- The SafetyMonitor's counters (issue 8), one row, written in the same transaction as the operation they count,
-- so a restart neither forgets nor double counts.
CREATE TABLE safety_counters (
    id              INTEGER PRIMARY KEY CHECK (id = 1),
    rules_json      TEXT NOT NULL DEFAULT '{}',   -- the behavioural rules' state: streaks, window, loop keys
    task_started_at TEXT,                         -- a task starts with a message from a person or the CLI, or an unlock
    task_tokens     INTEGER NOT NULL DEFAULT 0,   -- tokens every LLM call of this task spent (main, llm_task, ...)
    task_ticks      INTEGER NOT NULL DEFAULT 0,   -- LLM-calling ticks of this task
    extra_budget    INTEGER NOT NULL DEFAULT 0,   -- tokens a person added with agent unlock --add-budget
    updated_at      TEXT
);
INSERT INTO safety_counters(id) VALUES (1);
