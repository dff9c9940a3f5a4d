-- hmp-agent schema, version 11: one row per LLM call (issue 11, cost). agent_log keeps a tick's tokens summed and
-- knows no model; this table keeps each call that reached a server or failed, so tokens can be shown per call, per
-- tick, per session and lifetime, by model, with the prompt tokens served from the provider's cache apart, and
-- priced per model.
--   purpose     main (the tick's own call) | comparison (step 5's mini-request) | task (a delegated llm_task)
--   at          when the call was sent, ISO-8601 UTC with exactly three fraction digits, so that text order is time
--               order (a session is "at >= its start")
--   model       the model that answered, else the one asked
--   endpoint    where the request went (never a secret: LlmClient.endpoint())
--   cached_tokens  the part of prompt_tokens the server read from its prompt cache
--   estimated   1 when the server sent no usage and the counts are estimates
--   outcome     ok | interrupted (cancelled: Ctrl-C, a halt, a reply cut for repeating itself) | error
--   error_kind  LlmException.kind() of a failed call ("timeout", "http_429", ...), else NULL
CREATE TABLE llm_calls (
    id                INTEGER PRIMARY KEY,
    tick_id           INTEGER NOT NULL,
    at                TEXT NOT NULL,
    purpose           TEXT NOT NULL CHECK (purpose IN ('main', 'comparison', 'task')),
    model             TEXT NOT NULL,
    endpoint          TEXT NOT NULL,
    prompt_tokens     INTEGER NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
    cached_tokens     INTEGER NOT NULL DEFAULT 0 CHECK (cached_tokens >= 0 AND cached_tokens <= prompt_tokens),
    completion_tokens INTEGER NOT NULL DEFAULT 0 CHECK (completion_tokens >= 0),
    estimated         INTEGER NOT NULL DEFAULT 0,
    duration_ms       INTEGER NOT NULL DEFAULT 0,
    outcome           TEXT NOT NULL CHECK (outcome IN ('ok', 'interrupted', 'error')),
    error_kind        TEXT
);
-- a tick's calls (agent log, the tick's cost)
CREATE INDEX idx_llm_calls_tick ON llm_calls(tick_id);
-- a session's calls (/status, agent status): a range of "at"
CREATE INDEX idx_llm_calls_at ON llm_calls(at);
