-- PostgreSQL's mirror of migrations/0010_attempt_parents.sql.

ALTER TABLE attempts ADD COLUMN parent_id BIGINT;
CREATE INDEX attempts_by_parent ON attempts (guild_id, parent_id) WHERE parent_id IS NOT NULL;
