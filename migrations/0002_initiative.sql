-- Initiative trackers (RULES.md §7): one open tracker per channel. The engine
-- owns state_json (engine.table.initiative.Tracker); the store only guards it:
-- every change is conditional on the version read, so two presses of Next at
-- once advance one turn.

CREATE TABLE initiative (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    status     TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    state_json TEXT NOT NULL,
    version    INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    -- the card that shows the tracker
    message_id INTEGER,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

-- one open tracker per channel, and "the channel's tracker"
CREATE UNIQUE INDEX initiative_open_per_channel
    ON initiative (guild_id, channel_id) WHERE status = 'open';
