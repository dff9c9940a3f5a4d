-- hmp-agent schema, version 7: the HMP registries V001 lacks (agent_scripts, agent_tables, users, users_group,
-- external_services, external_accounts), the outbox columns of notes for peer_message, and the starting catalogue
-- of stagnation strategies and thinking methods. Table and column names follow the HMP reference schema
-- (agents/tools/db_structure.sql); where hmp-agent differs it says so on the line.

-- Scripts the agent wrote for itself; one row per version, the newest (highest id) is the one that runs.
CREATE TABLE agent_scripts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT NOT NULL,
    version     TEXT NOT NULL,
    code        TEXT NOT NULL,
    language    TEXT DEFAULT 'python',          -- python | sh | bash (the interpreters hmp-agent knows)
    description TEXT,
    tags        TEXT,
    created_at  DATETIME DEFAULT CURRENT_TIMESTAMP,
    updated_at  DATETIME DEFAULT CURRENT_TIMESTAMP,
    llm_id      TEXT,
    UNIQUE(name, version)
);

-- Tables the agent created for itself. Each lives in the reserved namespace agent_t_<name>, so no command can
-- reach the agent's own tables through it (no hmp-agent table starts with agent_t_).
CREATE TABLE agent_tables (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    table_name  TEXT NOT NULL UNIQUE CHECK (table_name GLOB 'agent_t_[a-z]*'),
    description TEXT,
    schema      TEXT NOT NULL,                  -- the CREATE TABLE statement that made it
    created_at  DATETIME DEFAULT CURRENT_TIMESTAMP,
    llm_id      TEXT
);

-- People who may write to the agent, known by their DID (as in notes.user_did).
CREATE TABLE users (
    user_id       INTEGER PRIMARY KEY AUTOINCREMENT,
    ban           DATETIME DEFAULT NULL,        -- banned until then; set by a person, never by the LLM
    username      TEXT,
    badges        TEXT,
    did           TEXT UNIQUE NOT NULL,
    mail          TEXT UNIQUE,                  -- HMP: NOT NULL; optional here (a person may be known by DID only)
    password_hash TEXT,                         -- HMP: NOT NULL; hmp-agent keeps no passwords and never shows it
    info          TEXT,                         -- JSON
    profile       TEXT,                         -- JSON
    contacts      TEXT,                         -- JSON array of other contacts (matrix, telegram, ...)
    language      TEXT,                         -- e.g. "ru,en"
    groups        TEXT DEFAULT '[]',            -- JSON array of users_group.group_name
    operator      BOOLEAN DEFAULT 0             -- set by a person, never by the LLM
);

CREATE TABLE users_group (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    group_name  TEXT UNIQUE NOT NULL,
    description TEXT
);

-- Outside services (forums, blogs, ...) and the agent's accounts on them.
CREATE TABLE external_services (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    name            TEXT NOT NULL,
    type            TEXT NOT NULL,              -- blog | forum | social | ...
    base_url        TEXT NOT NULL,
    description     TEXT,
    active          BOOLEAN DEFAULT true,
    inactive_reason TEXT
);

-- An account row names WHERE its secret lives, never the secret: HMP's password column stays empty (the CHECK
-- refuses anything else, whoever writes), and secret_ref says env:VARIABLE or keyring:entry.
CREATE TABLE external_accounts (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    service_id      INTEGER NOT NULL REFERENCES external_services(id) ON DELETE CASCADE,
    login           TEXT NOT NULL,
    password        TEXT NOT NULL DEFAULT '' CHECK (password = ''),
    purpose         TEXT,
    active          BOOLEAN DEFAULT true,
    inactive_reason TEXT,
    secret_ref      TEXT NOT NULL CHECK (                       -- added: where the secret lives
        (secret_ref GLOB 'env:[A-Za-z_]*' AND length(secret_ref) <= 68
            AND substr(secret_ref, 5) NOT GLOB '*[^A-Za-z0-9_]*')
        OR (secret_ref GLOB 'keyring:?*' AND length(secret_ref) <= 136
            AND substr(secret_ref, 9) NOT GLOB '*[^-A-Za-z0-9_.@/]*'))
);
CREATE INDEX idx_external_accounts_service ON external_accounts(service_id);

-- peer_message: an outgoing note (source 'llm') addressed to a known peer, waiting for delivery over the network
-- (later work). Both columns stay NULL on every other note.
ALTER TABLE notes ADD COLUMN peer_id TEXT;                  -- added: the agent_peers.id it is addressed to
ALTER TABLE notes ADD COLUMN delivery_status TEXT           -- added: pending | sent | delivered | failed
    CHECK (delivery_status IS NULL OR delivery_status IN ('pending', 'sent', 'delivered', 'failed'));
CREATE INDEX idx_notes_outbox ON notes(delivery_status, id) WHERE delivery_status IS NOT NULL;

-- The catalogue of ways out of stagnation from the HMP REPL cycle, grouped by class in tags; only into an empty
-- table, so a file whose owner already filled it keeps its own.
INSERT INTO stagnation_strategies(name, description, source, tags)
SELECT column1, column2, 'internal', column3 FROM (VALUES
    ('Mesh request', 'Ask other agents of the mesh to tell you something new, or what they would explore now.',
        'external_stimulation,cheap'),
    ('Check the outside world', 'Look at RSS feeds, sensors or internet channels for fresh data.',
        'external_stimulation'),
    ('Information feeding', 'Read new material, scientific or fiction, to bring in fresh associations.',
        'external_stimulation'),
    ('Dialogue with the user', 'Ask the user for an opinion, comments or questions that may spark unexpected ideas.',
        'external_stimulation'),
    ('Change of context', 'Move the task to another module or a simulated environment.',
        'context_change,costly'),
    ('Creative intervention', 'Shift the focus at random, reconfigure the context, change the frame.',
        'context_change'),
    ('Task switch', 'Freeze the task for now and come back to it after some hours.',
        'context_change'),
    ('Random iteration', 'Pick a random action from the allowed set to break the pattern.',
        'context_change'),
    ('Flashback', 'Recall a diary entry far in meaning from the current topic to change the associative context.',
        'internal_restructuring,cheap'),
    ('Interest memory', 'Come back to forgotten topics, following thematic fatigue.',
        'internal_restructuring'),
    ('Meta-analysis', 'Ask: if I am going in circles, what is the meta-problem, and which way out applies?',
        'internal_restructuring'),
    ('Goal reformulation', 'Simplify or sharpen the task to lower the cognitive pressure.',
        'internal_restructuring'),
    ('Switch LLM', 'Switch to another model or to mesh access.',
        'internal_restructuring'),
    ('LLM reflex tuning', 'Raise temperature and presence_penalty while stagnating; return to the defaults for precision.',
        'internal_restructuring'),
    ('Radical pause', 'Sleep or freeze for a long period, to come back with a fresh look.',
        'radical_pause,costly'))
WHERE NOT EXISTS (SELECT 1 FROM stagnation_strategies);

INSERT INTO thinking_methods(name, description, type, source, tags)
SELECT column1, column2, column3, 'internal', column4 FROM (VALUES
    ('Start with an analogy', 'Find a problem this one resembles and borrow its solution.',
        'idea generation', 'micro-scenario'),
    ('Check the converse', 'State the opposite of your claim and test whether it holds.',
        'argumentation', 'micro-scenario'),
    ('Question for an opponent', 'Write the question a sceptical opponent would ask, then answer it.',
        'argumentation', 'micro-scenario'),
    ('Iterative refinement', 'Take the current answer, find its weakest part, improve that part, repeat.',
        'problem solving', 'micro-scenario'))
WHERE NOT EXISTS (SELECT 1 FROM thinking_methods);
