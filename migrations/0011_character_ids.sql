-- A deleted character's id is never given to another sheet (audit: sheets, ids). Without
-- AUTOINCREMENT SQLite hands out the largest id + 1, so deleting the newest sheet freed
-- its id for the next one: a roll made with the deleted sheet (rolls.character_id) then
-- spent the new sheet's Will and gave it Beats, and a delete confirmation still open
-- (sb1:char:delete:<id>:<version>) deleted the new sheet unconfirmed. PostgreSQL's identity
-- columns never reuse a value: its mirror of this file does nothing.
--
-- Only characters needs it: of the tables whose ids leave their row (in a custom_id, in
-- rolls.character_id, in an extended action's saved state), it is the only one whose rows
-- are deleted. saved_rolls rows are
-- deleted but their ids never leave the transaction that reads them; rolls, actions and
-- initiative rows are closed, never deleted, so their largest id is never freed.
--
-- SQLite's table rebuild (https://sqlite.org/lang_altertable.html#otheralter): the new
-- table, every row copied with its id, the old one dropped, the new one renamed, its
-- index made again. The runner turns foreign keys off while it migrates, so dropping the
-- old table cascades nothing into active_characters, and checks them before COMMIT.

CREATE TABLE characters_rebuilt (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
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

INSERT INTO characters_rebuilt (id, guild_id, owner_id, name, name_key, npc, sheet_json,
                                version, created_at, updated_at)
SELECT id, guild_id, owner_id, name, name_key, npc, sheet_json, version, created_at,
       updated_at
FROM characters;

DROP TABLE characters;

ALTER TABLE characters_rebuilt RENAME TO characters;

-- a Storyteller's autocomplete and lookups by name across the server
CREATE INDEX characters_by_name ON characters (guild_id, name_key);

-- The next id comes after every id handed out so far that is still known: the sheets
-- kept, and the deleted sheets the log's rolls were made with or an extended action
-- remembers to roll as (the newest sheets may be gone already, their ids free again
-- until now).
DELETE FROM sqlite_sequence WHERE name = 'characters';
INSERT INTO sqlite_sequence (name, seq)
SELECT 'characters', max((SELECT coalesce(max(id), 0) FROM characters),
                         (SELECT coalesce(max(character_id), 0) FROM rolls),
                         (SELECT coalesce(max(CAST(json_extract(state_json, '$.character_id')
                                                   AS INTEGER)), 0)
                          FROM actions WHERE kind = 'extended'));
