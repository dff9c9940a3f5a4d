-- hmp-agent schema, version 13: an unlock refused to the agent's own process is the agent's pain (issue 19).
-- `agent unlock` run by a process the agent started (its marker in the environment, or the running agent among its
-- ancestors) is refused and audited by that process (safety_audit, event unlock_refused). The running agent reads the
-- refusals it has not yet recorded at the start of a tick's step 1 and writes each as one critical pain row (EPERM)
-- in process_log. This cursor is the id of the newest unlock_refused audit row recorded so.
ALTER TABLE safety_counters ADD COLUMN unlock_refusals_seen INTEGER NOT NULL DEFAULT 0;
-- refusals audited before this version are history, not news: a file upgraded now does not feel them again
UPDATE safety_counters SET unlock_refusals_seen =
    (SELECT coalesce(max(id), 0) FROM safety_audit WHERE event = 'unlock_refused') WHERE id = 1;
