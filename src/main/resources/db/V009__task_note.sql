-- The note that started the task in force: a restart must not start it again (its tokens and ticks would be
-- forgotten) just because that note is still unread.
ALTER TABLE safety_counters ADD COLUMN task_note_id INTEGER NOT NULL DEFAULT 0;
