-- The note that started the task in force: a restart must not start it again (its tokens and ticks would be
-- forgotten) just because that note is still unread.
ALTER TABLE safety_counters ADD COLUMN task_note_id INTEGER NOT NULL DEFAULT 0;
-- The rolling daily token budget sums the ticks of the last 24 hours.
CREATE INDEX idx_agent_log_started ON agent_log(started_at);
