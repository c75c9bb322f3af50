-- The fistful Successive Action Penalty counts a character's actions (RULES.md §3: "each
-- action a character takes after the first in the same turn"), not a member's: a
-- Storyteller rolling two NPCs, or a player two characters, gave the second a penalty
-- for the first's action. A row now counts either a member's own actions, rolled without
-- a sheet (user_id the member, character_id 0), or a character's, whoever rolls it
-- (user_id 0, character_id the sheet's id: two Storytellers sharing an NPC share its
-- count). The counts kept so far stay the members' own: in the turn under way at the
-- upgrade, a character's earlier actions are not counted again.
--
-- SQLite's table rebuild, for its new primary key
-- (https://sqlite.org/lang_altertable.html#otheralter): the new table, every row copied,
-- the old one dropped, the new one renamed. No table refers to this one.

CREATE TABLE turn_actions_rebuilt (
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    actions      INTEGER NOT NULL CHECK (actions >= 1),
    updated_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    character_id INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, channel_id, character_id, user_id),
    -- a member's own count or a character's, never both nor neither
    CHECK ((user_id = 0) <> (character_id = 0))
) STRICT;

INSERT INTO turn_actions_rebuilt (guild_id, channel_id, user_id, actions, updated_at)
SELECT guild_id, channel_id, user_id, actions, updated_at FROM turn_actions;

DROP TABLE turn_actions;

ALTER TABLE turn_actions_rebuilt RENAME TO turn_actions;
