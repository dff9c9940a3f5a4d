-- hmp-agent schema, version 3: the safety state, its audit, and the control channel.
--
-- safety_state: one row, the persisted state of DESIGN.md's "Decisions": ACTIVE, STOPPED (reason halt |
-- budget | quota), SAFETY_LOCKOUT, ERROR_PAUSED. Only these survive a restart; nothing the LLM writes
-- reaches this table. Moves follow one transition table in the code (dev.hmpagent.safety.SafetyStates).
CREATE TABLE safety_state (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    state   TEXT NOT NULL CHECK (state IN ('ACTIVE', 'STOPPED', 'SAFETY_LOCKOUT', 'ERROR_PAUSED')),
    reason  TEXT CHECK (reason IS NULL OR reason IN ('halt', 'budget', 'quota')),
    detail  TEXT,                         -- what the person (or the monitor) said
    since   TEXT NOT NULL
);
INSERT INTO safety_state(id, state, since) VALUES (1, 'ACTIVE', strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));

-- safety_audit: append-only record of every move of safety_state (halts, unlocks, later alerts and lockouts).
CREATE TABLE safety_audit (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    at          TEXT NOT NULL,
    event       TEXT NOT NULL,            -- halt | unlock | ...
    from_state  TEXT NOT NULL,
    to_state    TEXT NOT NULL,
    reason      TEXT,                     -- the stop reason of the state entered, if any
    detail      TEXT,                     -- --reason, as given
    pid         INTEGER,                  -- who asked: process, user, host
    user_name   TEXT,
    host        TEXT
);
CREATE TRIGGER safety_audit_append_only_update BEFORE UPDATE ON safety_audit
BEGIN SELECT RAISE(ABORT, 'safety_audit is append-only'); END;
CREATE TRIGGER safety_audit_append_only_delete BEFORE DELETE ON safety_audit
BEGIN SELECT RAISE(ABORT, 'safety_audit is append-only'); END;

-- control_requests: how other processes steer a running agent through the file. The running agent reads
-- new rows first thing in every loop iteration and, from a second thread, at least every 25 ms.
CREATE TABLE control_requests (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    kind          TEXT NOT NULL CHECK (kind IN ('halt', 'unlock', 'note')),
    reason        TEXT,                   -- --reason, or the note id for 'note'
    pid           INTEGER,
    user_name     TEXT,
    host          TEXT,
    requested_at  TEXT NOT NULL,
    handled_at    TEXT,                   -- when a running agent acted on it (NULL: none has)
    handled_by    INTEGER                 -- that agent's pid
);

-- What the running agent publishes with its heartbeat, for `agent status` in another process.
ALTER TABLE runner_lock ADD COLUMN phase TEXT;
ALTER TABLE runner_lock ADD COLUMN hz REAL;
ALTER TABLE runner_lock ADD COLUMN noop_ticks INTEGER;
ALTER TABLE runner_lock ADD COLUMN published_at TEXT;
