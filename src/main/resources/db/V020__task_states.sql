-- hmp-agent schema, version 20: the states the task in force has reached (the SafetyMonitor's task ledger, issue 33)
-- in a table of their own, oldest first by id, at most 2,048 (the oldest forgotten first). They were part of
-- safety_counters.rules_json, which is written with every operation: up to 52 KB each time at 2,048 states. A state
-- is now one small row, added when the task first reaches it (issue 36). Rules stored before this version still hold
-- their states as "seen" in the JSON: they move here at the agent's next write of the rules.
CREATE TABLE task_states (
    id    INTEGER PRIMARY KEY,
    state TEXT NOT NULL UNIQUE
);
