-- The first schema: settings, rolls, Will pools, Beats, successive attempts,
-- the fistful turn counter, and generic actions (extended actions, teamwork,
-- contests) whose state is a JSON document owned by the engine.
--
-- Conventions: ids are Discord snowflakes (INTEGER); booleans are 0/1;
-- timestamps are UTC ISO-8601 text written by SQLite itself; a NULL setting
-- means "not set here", so the next level (or the default) applies.
-- The runner applies this file and records its version in one transaction:
-- no BEGIN/COMMIT and no PRAGMA here.

CREATE TABLE guild_settings (
    guild_id               INTEGER PRIMARY KEY,
    ruleset                TEXT CHECK (ruleset IN ('cofd', 'v20', 'fistful')),
    storyteller_role_id    INTEGER,
    -- where the full copies of secret rolls go
    storyteller_channel_id INTEGER,
    updated_at             TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

CREATE TABLE channel_settings (
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    ruleset      TEXT CHECK (ruleset IN ('cofd', 'v20', 'fistful')),
    will_timing  TEXT CHECK (will_timing IN ('any', 'before')),
    -- successive-attempt penalties on (1) or "no pressure" (0)
    pressure     INTEGER CHECK (pressure IN (0, 1)),
    -- fistful Successive Action Penalty per earlier action; 0 turns it off
    fistful_step INTEGER CHECK (fistful_step >= 0),
    text_only    INTEGER CHECK (text_only IN (0, 1)),
    dice_order   TEXT CHECK (dice_order IN ('rolled', 'sorted')),
    updated_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, channel_id)
) STRICT;

-- Extended actions, teamwork and contests. The engine owns state_json; the
-- store only guards it: every change is conditional on the version read.
CREATE TABLE actions (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('extended', 'teamwork', 'contest')),
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    owner_id   INTEGER NOT NULL,
    label      TEXT NOT NULL,
    -- label folded for matching: case and runs of spaces do not matter
    label_key  TEXT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    state_json TEXT NOT NULL,
    version    INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    -- the card that shows the action
    message_id INTEGER,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

-- "the open action with this label in this channel" and autocomplete
CREATE INDEX actions_open_by_label
    ON actions (guild_id, channel_id, label_key) WHERE status = 'open';
-- "my open actions in this channel"
CREATE INDEX actions_open_by_owner
    ON actions (guild_id, channel_id, owner_id) WHERE status = 'open';
-- the last ended attempt at a task (what a fresh attempt inherits)
CREATE INDEX actions_by_label ON actions (guild_id, channel_id, kind, label_key, id);

CREATE TABLE rolls (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    roller_id       INTEGER NOT NULL,
    -- the roller's name as the roll's message showed it
    roller_name     TEXT NOT NULL DEFAULT '',
    label           TEXT,
    private         INTEGER NOT NULL DEFAULT 0 CHECK (private IN (0, 1)),
    -- the request as first rolled (what "Try again" repeats)
    request_json    TEXT NOT NULL,
    -- the current reading (replaced by a Will spend or a Beat)
    result_json     TEXT NOT NULL,
    will_state      TEXT NOT NULL CHECK (will_state IN ('none', 'declared', 'offered', 'spent')),
    beat            INTEGER NOT NULL DEFAULT 0 CHECK (beat IN (0, 1)),
    retried         INTEGER NOT NULL DEFAULT 0 CHECK (retried IN (0, 1)),
    -- 1 once the roll's buttons no longer act (new roll, turn, scene, Beat, void)
    closed          INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1)),
    void            INTEGER NOT NULL DEFAULT 0 CHECK (void IN (0, 1)),
    voided_by       INTEGER,
    action_id       INTEGER REFERENCES actions (id) ON DELETE SET NULL,
    -- the message in the channel, and the copy of a secret roll
    message_id      INTEGER,
    copy_channel_id INTEGER,
    copy_message_id INTEGER,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

-- /history, newest first, with or without a member
CREATE INDEX rolls_history ON rolls (guild_id, channel_id, roller_id, id);
CREATE INDEX rolls_channel ON rolls (guild_id, channel_id, id);
-- rolls whose buttons still act, to close them
CREATE INDEX rolls_live ON rolls (guild_id, channel_id, roller_id) WHERE closed = 0;
CREATE INDEX rolls_action ON rolls (action_id) WHERE action_id IS NOT NULL;

-- A row exists only for a tracked pool: an untracked pool never blocks a spend.
CREATE TABLE will_pools (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    current    INTEGER NOT NULL,
    maximum    INTEGER NOT NULL CHECK (maximum >= 0),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, user_id),
    CHECK (current BETWEEN 0 AND maximum)
) STRICT;

CREATE TABLE beats (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    beats      INTEGER NOT NULL CHECK (beats >= 0),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, user_id)
) STRICT;

-- Successive attempts: failures in a row of one action (same player, channel
-- and label). A success deletes the row; so does the end of the scene.
CREATE TABLE attempts (
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    label_key  TEXT NOT NULL,
    failures   INTEGER NOT NULL CHECK (failures >= 1),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, channel_id, user_id, label_key)
) STRICT;

-- fistful Successive Action Penalty: actions taken this turn.
CREATE TABLE turn_actions (
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    actions    INTEGER NOT NULL CHECK (actions >= 1),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, channel_id, user_id)
) STRICT;
