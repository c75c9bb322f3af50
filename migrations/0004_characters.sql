-- Character sheets (RULES.md §6): per server and owner, the active character per
-- member per server (channel_id 0) or pinned to one channel, and the character a
-- roll was made with (its Will, Beats and name). The sheet itself, Will and Beats
-- included, is a JSON document owned by the engine; every change is conditional on
-- the version read. Members without a character keep their will_pools row: nothing
-- of it moves here.

CREATE TABLE characters (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    owner_id   INTEGER NOT NULL,
    name       TEXT NOT NULL,
    -- the name folded for matching: case, spaces and accents do not matter
    name_key   TEXT NOT NULL,
    npc        INTEGER NOT NULL DEFAULT 0 CHECK (npc IN (0, 1)),
    sheet_json TEXT NOT NULL,
    version    INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (guild_id, owner_id, name_key)
) STRICT;

-- a Storyteller's autocomplete and lookups by name across the server
CREATE INDEX characters_by_name ON characters (guild_id, name_key);

CREATE TABLE active_characters (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    -- 0: the member's character in the whole server; else pinned to this channel
    channel_id   INTEGER NOT NULL,
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    PRIMARY KEY (guild_id, user_id, channel_id)
) STRICT;

CREATE INDEX active_characters_by_character ON active_characters (character_id);

-- No foreign key: a deleted sheet's rolls stay in the log under its name.
ALTER TABLE rolls ADD COLUMN character_id INTEGER;
ALTER TABLE rolls ADD COLUMN character_name TEXT;
