-- PostgreSQL's mirror of migrations/0007_initiative_pool.sql.

ALTER TABLE channel_settings ADD COLUMN initiative_pool TEXT
    CHECK (initiative_pool IS NULL OR length(initiative_pool) BETWEEN 1 AND 100);
