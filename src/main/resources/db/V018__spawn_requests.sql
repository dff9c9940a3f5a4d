-- Issue 37: `agent spawn NAME` asks the running agent to start a child through the control channel, as `agent halt`
-- asks it to stop: control_requests.kind gains 'spawn' (its reason holds the request's JSON: name, model, hz,
-- instructions). SQLite cannot change a CHECK in place, so the table is made again with its rows.
CREATE TABLE control_requests_new (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    kind          TEXT NOT NULL CHECK (kind IN ('halt', 'unlock', 'note', 'spawn')),
    reason        TEXT,                   -- --reason, the note id for 'note', the request's JSON for 'spawn'
    pid           INTEGER,
    user_name     TEXT,
    host          TEXT,
    requested_at  TEXT NOT NULL,
    handled_at    TEXT,                   -- when a running agent acted on it (NULL: none has)
    handled_by    INTEGER                 -- that agent's pid
);
INSERT INTO control_requests_new (id, kind, reason, pid, user_name, host, requested_at, handled_at, handled_by)
    SELECT id, kind, reason, pid, user_name, host, requested_at, handled_at, handled_by FROM control_requests;
DROP TABLE control_requests;
ALTER TABLE control_requests_new RENAME TO control_requests;
