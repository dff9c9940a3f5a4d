-- hmp-agent schema, version 18: the anti-stagnation reflex's mesh request (issue 37). Firing it asks the peers the
-- agent may send to without asking anyone ([a2a] allow, or a child it spawned; at most 3) what they would explore
-- now, as peer_message commands of the tick; their answers come back as those commands' results. While no such peer
-- is known the strategy is unavailable (the reflex checks each time), never faked.
UPDATE stagnation_strategies SET effect = 'mesh_request', active = 1, inactive_reason = NULL
WHERE source = 'internal' AND name = 'Mesh request';
