-- Commands leave the tick's transaction (issue 7): the tick commits one `pending` row per parsed
-- command; the executor runs them afterwards, each in its own short transaction.
--   error_code: EPERM, ENOENT, EINVAL, ETIMEDOUT, EEXIT(n), EHALT, EOFFLINE, EUNKNOWN… for failed rows
--   severity:   critical | medium | low for failed rows (pain_level follows it)
--   wake:       1 when the row, once finished, is something the LLM must be woken for (a failure, an
--               asynchronous result, information it asked for); 0 for an effect-only success, which
--               rides along in the next prompt something else causes
ALTER TABLE process_log ADD COLUMN error_code TEXT;
ALTER TABLE process_log ADD COLUMN severity TEXT;
ALTER TABLE process_log ADD COLUMN wake INTEGER NOT NULL DEFAULT 1;
CREATE INDEX idx_process_log_in_flight ON process_log(tick_id, id) WHERE status IN ('pending', 'running');
