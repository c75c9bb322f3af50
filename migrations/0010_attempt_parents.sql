-- The channel a thread's successive attempts were made under (NULL: not a thread, or
-- counted before this column), so that "no pressure" on a channel forgets the attempts
-- of its threads that follow its setting too (RULES.md §1).
ALTER TABLE attempts ADD COLUMN parent_id INTEGER;
CREATE INDEX attempts_by_parent ON attempts (guild_id, parent_id) WHERE parent_id IS NOT NULL;
