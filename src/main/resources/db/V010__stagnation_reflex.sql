-- hmp-agent schema, version 10: the anti-stagnation reflex (issue 9). Step 5 compares each reply with the previous
-- one (locally, through a mini-request to an LLM, or both); the signs of stagnation are read from one
-- anti_stagnation_metrics row per LLM-calling tick; the reflex diagnoses the source, fires strategies from the
-- catalogue (cheap first, by reputation), applies their effects through reflex_state and reflex_items, and rates
-- each firing by what the novelty did next.

-- What step 5 found about each reply (HMP columns reflection, novelty_score, new_ideas, refined_ideas,
-- discarded_ideas were there already).
ALTER TABLE llm_recent_responses ADD COLUMN comparison_method TEXT;        -- added: none | local | llm | hybrid:local | hybrid:llm
ALTER TABLE llm_recent_responses ADD COLUMN comparison_verdict TEXT;       -- added: new | same | unknown
ALTER TABLE llm_recent_responses ADD COLUMN comparison_tokens INTEGER NOT NULL DEFAULT 0;  -- added: tokens of the comparison call
ALTER TABLE llm_recent_responses ADD COLUMN content_hash TEXT;             -- added: SHA-256 of the normalised text
CREATE INDEX idx_llm_recent_responses_hash ON llm_recent_responses(content_hash) WHERE content_hash IS NOT NULL;

-- The comparison's tokens count with every other call: the tick's row holds them apart from the main call's.
ALTER TABLE agent_log ADD COLUMN comparison_tokens INTEGER NOT NULL DEFAULT 0;

-- One row per LLM-calling tick that got a reply: what the signs of stagnation are read from.
-- response_id: the earlier reply this one was compared with (the one it repeated, when reflex_fired).
ALTER TABLE anti_stagnation_metrics ADD COLUMN verdict TEXT;               -- new | same | unknown
ALTER TABLE anti_stagnation_metrics ADD COLUMN comparison_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE anti_stagnation_metrics ADD COLUMN identical INTEGER NOT NULL DEFAULT 0;
ALTER TABLE anti_stagnation_metrics ADD COLUMN repeat_of_tick INTEGER NOT NULL DEFAULT 0;  -- an earlier reply it equals
ALTER TABLE anti_stagnation_metrics ADD COLUMN stimulus INTEGER NOT NULL DEFAULT 0;        -- a new note or result shown
ALTER TABLE anti_stagnation_metrics ADD COLUMN person_message INTEGER NOT NULL DEFAULT 0;  -- a person's new message shown
ALTER TABLE anti_stagnation_metrics ADD COLUMN graph_mark TEXT;            -- "max concept id/max link id" at the tick
ALTER TABLE anti_stagnation_metrics ADD COLUMN stagnant INTEGER NOT NULL DEFAULT 0;
ALTER TABLE anti_stagnation_metrics ADD COLUMN signs TEXT;                 -- the signs that held, one phrase each
CREATE INDEX idx_anti_stagnation_metrics_tick ON anti_stagnation_metrics(tick_id);

-- Each strategy's class and cost, and what hmp-agent does for it (effect, a code name; NULL: nothing here).
ALTER TABLE stagnation_strategies ADD COLUMN class TEXT;   -- external_stimulation | context_change | internal_restructuring | radical_pause
ALTER TABLE stagnation_strategies ADD COLUMN cost INTEGER NOT NULL DEFAULT 2;   -- 1 cheap, 2 medium, 3 costly
ALTER TABLE stagnation_strategies ADD COLUMN effect TEXT;

UPDATE stagnation_strategies SET class = v.column2, cost = v.column3, effect = v.column4
FROM (VALUES
    ('Mesh request',            'external_stimulation',   1, NULL),
    ('Check the outside world', 'external_stimulation',   1, NULL),
    ('Information feeding',     'external_stimulation',   2, NULL),
    ('Dialogue with the user',  'external_stimulation',   2, 'ask_person'),
    ('Change of context',       'context_change',         3, 'change_context'),
    ('Creative intervention',   'context_change',         1, 'creative_frame'),
    ('Task switch',             'context_change',         2, 'task_switch'),
    ('Random iteration',        'context_change',         1, 'random_action'),
    ('Flashback',               'internal_restructuring', 1, 'flashback'),
    ('Interest memory',         'internal_restructuring', 1, 'interest_memory'),
    ('Meta-analysis',           'internal_restructuring', 1, 'meta_analysis'),
    ('Goal reformulation',      'internal_restructuring', 2, 'goal_reformulation'),
    ('Switch LLM',              'internal_restructuring', 3, 'switch_llm'),
    ('LLM reflex tuning',       'internal_restructuring', 1, 'reflex_tuning'),
    ('Radical pause',           'radical_pause',          3, 'sleep')) AS v
WHERE stagnation_strategies.name = v.column1 AND stagnation_strategies.source = 'internal';

-- The three that need the outside world (the mesh, feeds, sensors) are not connected yet: skipped, never faked.
UPDATE stagnation_strategies SET active = 0,
    inactive_reason = 'needs the mesh or the outside world, which hmp-agent does not reach yet'
WHERE source = 'internal' AND name IN ('Mesh request', 'Check the outside world', 'Information feeding');

-- Ratings of strategies are -1 (did not help), 0, +1 (helped): the reflex's rule and the LLM's rating_add share the
-- scale, and an unrated strategy's reputation 0 is neutral. Thinking methods keep 1..5. Earlier 1..5 ratings of
-- strategies map to the sign of (rating - 3); the update trigger recomputes each reputation.
UPDATE ratings SET rating = CASE WHEN rating > 3 THEN 1 WHEN rating < 3 THEN -1 ELSE 0 END
WHERE target_type = 'stagnation_strategy';

-- Each strategy the reflex fired: in which episode and round, in what order, the novelty before and after, and the
-- rating the rule gave it (+1 when novelty rose above the threshold within stagnation.rating_ticks LLM ticks).
CREATE TABLE reflex_firings (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    timestamp      TEXT NOT NULL,
    tick_id        INTEGER NOT NULL,
    episode        INTEGER NOT NULL,        -- the tick at which this stagnation episode was first detected
    round          INTEGER NOT NULL,        -- 1 for the episode's first firing
    position       INTEGER NOT NULL,        -- order within the firing: 1, 2, ...
    strategy_id    INTEGER NOT NULL,
    strategy       TEXT NOT NULL,
    class          TEXT NOT NULL,
    diagnosis      TEXT NOT NULL,
    effect         TEXT NOT NULL,           -- what was done, one line
    novelty_before REAL,
    novelty_after  REAL,
    rating         INTEGER,                 -- +1 / -1 once decided
    rated_at_tick  INTEGER
);
CREATE INDEX idx_reflex_firings_unrated ON reflex_firings(id) WHERE rating IS NULL;
CREATE INDEX idx_reflex_firings_episode ON reflex_firings(episode, id);

-- The per-tick knobs the reflex changes, read with the tick's settings snapshot: NULL means "as configured".
CREATE TABLE reflex_state (
    id                INTEGER PRIMARY KEY CHECK (id = 1),
    temperature       REAL,
    presence_penalty  REAL,
    frequency_penalty REAL,
    history_k         INTEGER,              -- change of context: fewer replies in context 1 ...
    history_until     INTEGER,              -- ... until this tick
    questions         INTEGER NOT NULL DEFAULT 0,   -- questions asked the person since they last wrote
    slowed            INTEGER NOT NULL DEFAULT 0,   -- 1 once the reflex slowed down for want of an answer
    episode           INTEGER,              -- the stagnation episode in force (its first tick), NULL when none
    rounds            INTEGER NOT NULL DEFAULT 0,   -- firings in that episode so far
    frozen_task_id    INTEGER,              -- task switch: the task frozen ...
    frozen_status     TEXT,                 -- ... its status before ...
    switched_task_id  INTEGER,              -- ... the task pinned instead ...
    return_at         TEXT                  -- ... and when to return to the frozen one
);
INSERT INTO reflex_state(id) VALUES (1);

-- Text the reflex adds to the next prompts (a flashback in context 3, a meta-analysis question in context 1 ...)
-- until a novel reply or the tick until_tick.
CREATE TABLE reflex_items (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    tick_id    INTEGER NOT NULL,
    strategy   TEXT NOT NULL,
    context    INTEGER NOT NULL CHECK (context IN (1, 3)),
    text       TEXT NOT NULL,
    until_tick INTEGER NOT NULL
);
