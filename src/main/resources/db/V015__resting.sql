-- hmp-agent schema, version 15: the reflex's rest is a persisted state (issue 23). RESTING joins the states of
-- safety_state, with the time it ends in `until` (set with RESTING and only with it). A rest ends by itself at that
-- time, at a message from a person, or with `agent unlock`; every move is audited in safety_audit as before.
-- SQLite cannot change a CHECK constraint in place: the one-row table is built again with the row copied.
CREATE TABLE safety_state_v15 (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    state   TEXT NOT NULL CHECK (state IN ('ACTIVE', 'STOPPED', 'SAFETY_LOCKOUT', 'ERROR_PAUSED', 'RESTING')),
    reason  TEXT CHECK (reason IS NULL OR reason IN ('halt', 'budget', 'quota')),
    detail  TEXT,                         -- what the person (or the monitor, or the reflex) said
    since   TEXT NOT NULL,
    until   TEXT,                         -- RESTING only: when the rest ends by itself
    CHECK ((state = 'RESTING') = (until IS NOT NULL))
);
INSERT INTO safety_state_v15(id, state, reason, detail, since) SELECT id, state, reason, detail, since FROM safety_state;
DROP TABLE safety_state;
ALTER TABLE safety_state_v15 RENAME TO safety_state;
