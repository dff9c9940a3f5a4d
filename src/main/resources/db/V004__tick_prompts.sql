-- hmp-agent schema: the exact prompt of every tick that called the LLM, for `agent log --tick N --prompt`.
-- A prompt is stored as its parts (context 0 as the system message; contexts 6, 3, 1, 2, 4, 5 as the
-- pieces of the user message, cut at their "## Context" headers). Each distinct part text is stored once,
-- under the SHA-256 of its UTF-8 bytes, so context 0 and the slow contexts cost one row however many ticks
-- show them; a tick costs one small row per part. The parts of a message, joined in position order, are
-- exactly the message the LLM got.
CREATE TABLE prompt_sections (
    hash BLOB PRIMARY KEY,                  -- SHA-256 of the UTF-8 bytes of text (32 bytes)
    text TEXT NOT NULL
);

CREATE TABLE tick_prompts (
    tick_id  INTEGER NOT NULL,
    position INTEGER NOT NULL,              -- order of the part in the prompt, from 0
    message  INTEGER NOT NULL,              -- index of the message it belongs to (0 system, 1 user)
    role     TEXT NOT NULL,                 -- system | user | assistant
    context  INTEGER NOT NULL,              -- the context it renders, 0-6
    hash     BLOB NOT NULL REFERENCES prompt_sections(hash),
    PRIMARY KEY (tick_id, position)
) WITHOUT ROWID;

-- `agent log` shows each tick with its reply: find a tick's reply without scanning every reply.
CREATE INDEX idx_llm_recent_responses_tick ON llm_recent_responses(tick_id, id);
