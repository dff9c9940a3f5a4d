-- Issue 23: progress is measured by the world, not by wording. progress = 1 when the tick's reply came after news
-- from the world: a command that succeeded with a result different (as safety.Fingerprint.ofProgress folds it) from
-- the last successful result of the same command since the agent started. The reflex's strong strategies never fire
-- while a recent tick has it, and no judge call is made for such a reply.
ALTER TABLE anti_stagnation_metrics ADD COLUMN progress INTEGER NOT NULL DEFAULT 0;
