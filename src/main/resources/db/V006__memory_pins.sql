-- hmp-agent schema, version 6: medium-term memory, note replies, and evidence for done goals and tasks.
--
-- pinned / pinned_tick: a pinned diary entry, concept, goal or task is shown in the context every tick
-- until the LLM unpins it (diary_pin, concept_pin, goal_pin, task_pin): diary entries and concepts in
-- context 3, up to a cap (the oldest pins beyond it are left out), goals and tasks first in context 6.
-- pinned is 1 while pinned (0 otherwise, so HMP tooling reads it as a flag); pinned_tick is the tick it
-- was pinned in, which orders the pins. The partial indexes serve the per-tick context queries.
ALTER TABLE diary_entries ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE diary_entries ADD COLUMN pinned_tick INTEGER;
CREATE INDEX idx_diary_entries_pinned ON diary_entries(pinned_tick, id) WHERE pinned = 1;

ALTER TABLE concepts ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE concepts ADD COLUMN pinned_tick INTEGER;
CREATE INDEX idx_concepts_pinned ON concepts(pinned_tick, id) WHERE pinned = 1;

ALTER TABLE goals ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE goals ADD COLUMN pinned_tick INTEGER;
-- evidence: JSON array of the process_log ids the LLM named when it marked the goal (task) done.
ALTER TABLE goals ADD COLUMN evidence TEXT;
CREATE INDEX idx_goals_pinned ON goals(pinned_tick, id) WHERE pinned = 1;
CREATE INDEX idx_goals_open ON goals(priority DESC) WHERE pinned = 0 AND status NOT IN ('done', 'dropped');

ALTER TABLE tasks ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN pinned_tick INTEGER;
ALTER TABLE tasks ADD COLUMN evidence TEXT;
CREATE INDEX idx_tasks_pinned ON tasks(pinned_tick, id) WHERE pinned = 1;
CREATE INDEX idx_tasks_open ON tasks(priority DESC) WHERE pinned = 0 AND status NOT IN ('done', 'dropped');

-- reply_to: the note an outgoing note answers (note_reply); NULL for everything else.
ALTER TABLE notes ADD COLUMN reply_to INTEGER REFERENCES notes(id) ON DELETE SET NULL;
