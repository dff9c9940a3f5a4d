-- Issue 37: the mesh. A2A tasks this agent serves: each is a peer's message (a notes row, source 'peer') and the
-- agent's answer to it; the task's state is kept here so a restart loses none. agent_peers gains what a peer reached
-- over A2A needs: its URL, its fetched agent card, and the NAME of the environment variable holding its token.
CREATE TABLE a2a_tasks (
    id          TEXT PRIMARY KEY,
    context_id  TEXT NOT NULL,
    note_id     INTEGER NOT NULL,
    caller      TEXT NOT NULL,
    state       TEXT NOT NULL DEFAULT 'submitted',
    message     TEXT NOT NULL,
    answer      TEXT,
    reason      TEXT,
    trace       TEXT NOT NULL DEFAULT '[]',
    tokens      INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX a2a_tasks_note ON a2a_tasks(note_id);
CREATE INDEX a2a_tasks_context ON a2a_tasks(context_id, created_at);
ALTER TABLE agent_peers ADD COLUMN url TEXT;
ALTER TABLE agent_peers ADD COLUMN card TEXT;
ALTER TABLE agent_peers ADD COLUMN token_env TEXT;
