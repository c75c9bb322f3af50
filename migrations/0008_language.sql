-- The language of public messages (issue 14): a channel's own, or the server's.
-- NULL: not set at this level (the server's, then Discord's preferred locale, then English).
ALTER TABLE channel_settings ADD COLUMN language TEXT
    CHECK (language IS NULL OR language IN ('en', 'pt-BR', 'es-ES'));
ALTER TABLE guild_settings ADD COLUMN language TEXT
    CHECK (language IS NULL OR language IN ('en', 'pt-BR', 'es-ES'));
