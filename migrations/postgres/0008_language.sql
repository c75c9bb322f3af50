-- PostgreSQL's mirror of migrations/0008_language.sql.

ALTER TABLE channel_settings ADD COLUMN language TEXT
    CHECK (language IS NULL OR language IN ('en', 'pt-BR', 'es-ES'));
ALTER TABLE guild_settings ADD COLUMN language TEXT
    CHECK (language IS NULL OR language IN ('en', 'pt-BR', 'es-ES'));
