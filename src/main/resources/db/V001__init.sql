-- hmp-agent schema, version 1.
-- Table and column names follow the HMP reference schema (agents/tools/db_structure.sql)
-- so the file stays recognisable to HMP tooling; hmp-agent only adds columns and tables.
-- Timestamps written by the agent are ISO-8601 UTC strings from its injected clock.

-- Incoming messages (context 4): from the user, the cli, the LLM, the system, peers.
CREATE TABLE notes (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    text      TEXT NOT NULL,
    code      TEXT,
    tags      TEXT,
    mentions  TEXT DEFAULT '[]',            -- JSON array of mentioned DIDs
    hashtags  TEXT DEFAULT '[]',            -- JSON array of hashtags
    user_did  TEXT DEFAULT 'ALL',
    agent_did TEXT,
    source    TEXT DEFAULT 'user',          -- user | cli | llm | system | peer
    links     TEXT DEFAULT '',
    read      INTEGER DEFAULT 0,            -- 1 once the LLM has seen it
    hidden    INTEGER DEFAULT 0,
    priority  INTEGER DEFAULT 0,
    timestamp TEXT DEFAULT CURRENT_TIMESTAMP,
    llm_id    TEXT,
    tick_id   INTEGER                       -- added: tick in which the LLM read it / wrote it
);
CREATE INDEX idx_notes_unread ON notes(read, id);

-- Commands and external processes (context 2).
CREATE TABLE process_log (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT NOT NULL,              -- command type, e.g. diary_entry
    value       TEXT,                       -- the command as the LLM sent it (JSON)
    tags        TEXT,
    status      TEXT DEFAULT 'ok',          -- ok | warning | error | timeout | offline | close | running | pending
    priority    INTEGER DEFAULT 0,
    timestamp   TEXT DEFAULT CURRENT_TIMESTAMP,
    llm_id      TEXT,
    cmd_id      TEXT,                       -- added: the LLM's cmd_id
    tick_id     INTEGER,                    -- added: tick that issued it
    result      TEXT,                       -- added: what the LLM gets back
    pain_level  REAL DEFAULT 0,             -- added: 0 for success, > 0 for a failure fact
    fingerprint TEXT,                       -- added: SHA-256 of the failure, for repeat counting
    seen_tick   INTEGER,                    -- added: last tick whose prompt showed this row
    updated_at  TEXT
);
CREATE INDEX idx_process_log_status ON process_log(status, id);
CREATE INDEX idx_process_log_unseen ON process_log(seen_tick, id);
CREATE INDEX idx_process_log_open ON process_log(id) WHERE status <> 'close';
CREATE INDEX idx_process_log_tick ON process_log(tick_id, id);
CREATE INDEX idx_process_log_fingerprint ON process_log(fingerprint);

-- Every LLM reply (context 1) with the anti-stagnation analysis.
CREATE TABLE llm_recent_responses (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    timestamp         DATETIME DEFAULT CURRENT_TIMESTAMP,
    role              TEXT CHECK(role IN ('user', 'assistant')) NOT NULL,
    content           TEXT NOT NULL,
    llm_id            TEXT,
    reflection        TEXT,
    novelty_score     REAL,
    new_ideas         TEXT,                 -- JSON array
    refined_ideas     TEXT,                 -- JSON array
    discarded_ideas   TEXT,                 -- JSON array
    tags              TEXT,                 -- JSON array
    emotions          TEXT,                 -- JSON array
    tick_id           INTEGER,              -- added
    prompt_tokens     INTEGER,              -- added
    completion_tokens INTEGER,              -- added
    tokens_estimated  INTEGER DEFAULT 0,    -- added: 1 when the server sent no usage
    interrupted       INTEGER DEFAULT 0,    -- added: 1 when cancelled mid-reply (Ctrl-C)
    stagnation        INTEGER DEFAULT 0     -- added: 1 for the short row recording that the reflex fired
);

-- The LLM's own notebook (context 6); written only by LLM commands.
CREATE TABLE llm_memory (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    title      TEXT,
    content    TEXT NOT NULL,
    tags       TEXT,
    created_at DATETIME DEFAULT CURRENT_TIMESTAMP,
    updated_at DATETIME DEFAULT CURRENT_TIMESTAMP,
    llm_id     TEXT
);

-- Long-term memory (context 3 on request).
CREATE TABLE diary_entries (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    text      TEXT NOT NULL,
    tags      TEXT,
    priority  INTEGER DEFAULT 0,
    timestamp TEXT DEFAULT CURRENT_TIMESTAMP,
    llm_id    TEXT
);

CREATE TABLE concepts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT NOT NULL UNIQUE,
    description TEXT,
    timestamp   TEXT DEFAULT CURRENT_TIMESTAMP,
    llm_id      TEXT
);

CREATE TABLE links (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    from_concept_id INTEGER,
    to_concept_id   INTEGER,
    relation_type   TEXT,
    timestamp       TEXT DEFAULT CURRENT_TIMESTAMP,
    llm_id          TEXT,
    FOREIGN KEY(from_concept_id) REFERENCES concepts(id),
    FOREIGN KEY(to_concept_id) REFERENCES concepts(id)
);
CREATE INDEX idx_links_from ON links(from_concept_id);
CREATE INDEX idx_links_to ON links(to_concept_id);

-- One row per tick.
CREATE TABLE agent_log (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    tick_id           INTEGER NOT NULL UNIQUE,
    started_at        TEXT NOT NULL,
    ended_at          TEXT NOT NULL,
    duration_ms       INTEGER NOT NULL,
    state             TEXT NOT NULL,        -- idle | thought | llm_error | error | interrupted
    wake_reason       TEXT,
    llm_called        INTEGER NOT NULL DEFAULT 0,
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    commands_run      INTEGER NOT NULL DEFAULT 0,
    commands_failed   INTEGER NOT NULL DEFAULT 0,
    stagnation        INTEGER NOT NULL DEFAULT 0,
    error             TEXT
);

-- Runtime cycle settings the LLM may change (key/value, HMP reference shape).
CREATE TABLE config (
    key   TEXT PRIMARY KEY,
    value TEXT
);

-- HMP reference tables kept so the file is complete for HMP tooling.
CREATE TABLE llm_registry (
    id            TEXT PRIMARY KEY,
    name          TEXT,
    description   TEXT,
    config_json   TEXT,
    registered_at DATETIME DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE identity (
    id         TEXT PRIMARY KEY,
    name       TEXT,
    pubkey     TEXT,
    privkey    TEXT,
    metadata   TEXT,
    created_at TEXT,
    updated_at TEXT
);

CREATE TABLE agent_peers (
    id            TEXT PRIMARY KEY,
    name          TEXT,
    addresses     TEXT,
    tags          TEXT,
    status        TEXT DEFAULT 'unknown',
    source        TEXT,
    last_seen     DATETIME,
    description   TEXT,
    capabilities  TEXT,
    pubkey        TEXT,
    heard_from    TEXT,
    software_info TEXT,
    registered_at DATETIME DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE tasks (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    title       TEXT NOT NULL,
    description TEXT,
    status      TEXT DEFAULT 'open',
    priority    INTEGER DEFAULT 0,
    goal_id     INTEGER REFERENCES goals(id),
    created_at  TEXT DEFAULT CURRENT_TIMESTAMP,
    updated_at  TEXT DEFAULT CURRENT_TIMESTAMP,
    llm_id      TEXT
);

CREATE TABLE goals (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    title       TEXT NOT NULL,
    description TEXT,
    status      TEXT DEFAULT 'active',
    priority    INTEGER DEFAULT 0,
    created_at  TEXT DEFAULT CURRENT_TIMESTAMP,
    updated_at  TEXT DEFAULT CURRENT_TIMESTAMP,
    llm_id      TEXT
);

-- Ways out of cognitive stagnation, and thinking methods, each with a reputation kept by the
-- triggers on ratings (the average of its ratings).
CREATE TABLE stagnation_strategies (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    name            TEXT NOT NULL,
    description     TEXT NOT NULL,
    source          TEXT,                   -- internal | mesh | user-defined
    tags            TEXT,
    reputation      REAL DEFAULT 0,
    active          BOOLEAN DEFAULT true,
    inactive_reason TEXT
);

CREATE TABLE thinking_methods (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    name            TEXT NOT NULL,
    description     TEXT NOT NULL,
    type            TEXT,
    source          TEXT,
    tags            TEXT,
    reputation      REAL DEFAULT 0,
    active          BOOLEAN DEFAULT true,
    inactive_reason TEXT
);

CREATE TABLE ratings (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    agent_id    TEXT NOT NULL,
    target_type TEXT NOT NULL,              -- thinking_method | stagnation_strategy
    target_id   INTEGER NOT NULL,
    rating      INTEGER NOT NULL,
    comment     TEXT,
    timestamp   DATETIME DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX idx_ratings_target ON ratings(target_type, target_id);

CREATE TRIGGER trg_ratings_reputation_insert AFTER INSERT ON ratings BEGIN
    UPDATE thinking_methods SET reputation = (SELECT coalesce(avg(rating), 0) FROM ratings
        WHERE target_type = 'thinking_method' AND target_id = NEW.target_id)
    WHERE NEW.target_type = 'thinking_method' AND id = NEW.target_id;
    UPDATE stagnation_strategies SET reputation = (SELECT coalesce(avg(rating), 0) FROM ratings
        WHERE target_type = 'stagnation_strategy' AND target_id = NEW.target_id)
    WHERE NEW.target_type = 'stagnation_strategy' AND id = NEW.target_id;
END;

CREATE TRIGGER trg_ratings_reputation_update AFTER UPDATE ON ratings BEGIN
    UPDATE thinking_methods SET reputation = (SELECT coalesce(avg(rating), 0) FROM ratings
        WHERE target_type = 'thinking_method' AND target_id = OLD.target_id)
    WHERE OLD.target_type = 'thinking_method' AND id = OLD.target_id;
    UPDATE stagnation_strategies SET reputation = (SELECT coalesce(avg(rating), 0) FROM ratings
        WHERE target_type = 'stagnation_strategy' AND target_id = OLD.target_id)
    WHERE OLD.target_type = 'stagnation_strategy' AND id = OLD.target_id;
    UPDATE thinking_methods SET reputation = (SELECT coalesce(avg(rating), 0) FROM ratings
        WHERE target_type = 'thinking_method' AND target_id = NEW.target_id)
    WHERE NEW.target_type = 'thinking_method' AND id = NEW.target_id;
    UPDATE stagnation_strategies SET reputation = (SELECT coalesce(avg(rating), 0) FROM ratings
        WHERE target_type = 'stagnation_strategy' AND target_id = NEW.target_id)
    WHERE NEW.target_type = 'stagnation_strategy' AND id = NEW.target_id;
END;

CREATE TRIGGER trg_ratings_reputation_delete AFTER DELETE ON ratings BEGIN
    UPDATE thinking_methods SET reputation = (SELECT coalesce(avg(rating), 0) FROM ratings
        WHERE target_type = 'thinking_method' AND target_id = OLD.target_id)
    WHERE OLD.target_type = 'thinking_method' AND id = OLD.target_id;
    UPDATE stagnation_strategies SET reputation = (SELECT coalesce(avg(rating), 0) FROM ratings
        WHERE target_type = 'stagnation_strategy' AND target_id = OLD.target_id)
    WHERE OLD.target_type = 'stagnation_strategy' AND id = OLD.target_id;
END;

CREATE TABLE anti_stagnation_metrics (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    timestamp      TEXT DEFAULT CURRENT_TIMESTAMP,
    tick_id        INTEGER,
    response_id    INTEGER,                 -- the earlier reply this one repeated
    novelty_score  REAL,
    method         TEXT,                    -- local-shingles | llm-compare
    reflex_fired   INTEGER DEFAULT 0,
    strategy       TEXT
);

-- Only one agent process runs the cycle on a file.
CREATE TABLE runner_lock (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    pid          INTEGER NOT NULL,
    host         TEXT NOT NULL,
    token        TEXT NOT NULL,
    started_at   TEXT NOT NULL,
    heartbeat_at TEXT NOT NULL
);
