-- What the LLM layer told a person during a tick, each once: another LLM thinks instead (a failover), none answers
-- (an outage), one answers again. NULL when it said nothing.
ALTER TABLE agent_log ADD COLUMN llm_notice TEXT;  -- added
