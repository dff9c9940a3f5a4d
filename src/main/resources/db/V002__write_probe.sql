-- hmp-agent schema, version 2.
-- write_probe: Store.probeWrite() inserts and deletes one row here, in one committed transaction, to learn
-- whether the file can be written again (after a disk-full or I/O error) before the agent spends an LLM
-- call. The table is empty between probes.
CREATE TABLE write_probe (
    id   INTEGER PRIMARY KEY,
    data BLOB NOT NULL,
    at   TEXT NOT NULL
);
