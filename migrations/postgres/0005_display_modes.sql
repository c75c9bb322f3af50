-- PostgreSQL's mirror of migrations/0005_display_modes.sql.
ALTER TABLE channel_settings ADD COLUMN compact INTEGER CHECK (compact IN (0, 1));
ALTER TABLE channel_settings ADD COLUMN plain INTEGER CHECK (plain IN (0, 1));
