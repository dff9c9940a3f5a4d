-- Marks the file as hmp-agent's in its header (offset 68), so a later open can tell it from another
-- program's SQLite file before writing anything to it. 0x484D5041 is "HMPA". Files made before this
-- migration are recognised by their tables (see Ownership) and get the mark here.
PRAGMA application_id = 1213026369;
