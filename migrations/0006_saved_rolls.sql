-- Saved rolls (issue 13): a member's named requests per server, kept as asked (the
-- pool's parts with bare trait names, the roll options, the specialty named) so that
-- rolling one resolves its names against the member's sheet and the channel's ruleset
-- of the day. asked_json is the engine's model (engine.saved.Asked).
CREATE TABLE saved_rolls (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    name       TEXT NOT NULL,
    -- the name folded for matching: case, spaces and accents do not matter
    name_key   TEXT NOT NULL,
    asked_json TEXT NOT NULL,
    label      TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (guild_id, user_id, name_key)
) STRICT;

-- A roll as its roller asked for it (Roll again, Save this roll); NULL for rolls made
-- before this migration and rolls of actions, which offer neither button.
ALTER TABLE rolls ADD COLUMN asked_json TEXT;
