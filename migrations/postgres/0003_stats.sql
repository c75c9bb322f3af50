-- PostgreSQL's mirror of migrations/0003_stats.sql: the same counters (read that
-- file for the levels and buckets). No backfill: a PostgreSQL database applies
-- 0001 to this file at its first start, before any roll exists.

CREATE TABLE stat_tally (
    guild_id            BIGINT NOT NULL,
    channel_id          BIGINT NOT NULL,
    roller_id           BIGINT NOT NULL,
    span                TEXT NOT NULL CHECK (span IN ('all', 'day', 'month')),
    bucket              INTEGER NOT NULL,
    private             INTEGER NOT NULL CHECK (private IN (0, 1)),
    ruleset             TEXT NOT NULL,
    rolls               INTEGER NOT NULL,
    dice                INTEGER NOT NULL,
    will_spent          INTEGER NOT NULL,
    dramatic_failure    INTEGER NOT NULL,
    failure             INTEGER NOT NULL,
    success             INTEGER NOT NULL,
    exceptional_success INTEGER NOT NULL,
    botch               INTEGER NOT NULL,
    f1 INTEGER NOT NULL, f2 INTEGER NOT NULL, f3 INTEGER NOT NULL, f4 INTEGER NOT NULL,
    f5 INTEGER NOT NULL, f6 INTEGER NOT NULL, f7 INTEGER NOT NULL, f8 INTEGER NOT NULL,
    f9 INTEGER NOT NULL, f10 INTEGER NOT NULL,
    PRIMARY KEY (guild_id, channel_id, roller_id, span, bucket, private, ruleset)
);

CREATE TABLE stat_shapes (
    guild_id            BIGINT NOT NULL,
    channel_id          BIGINT NOT NULL,
    roller_id           BIGINT NOT NULL,
    span                TEXT NOT NULL CHECK (span IN ('all', 'day', 'month')),
    bucket              INTEGER NOT NULL,
    private             INTEGER NOT NULL CHECK (private IN (0, 1)),
    ruleset             TEXT NOT NULL,
    shape               TEXT NOT NULL,
    rolls               INTEGER NOT NULL,
    dramatic_failure    INTEGER NOT NULL,
    failure             INTEGER NOT NULL,
    success             INTEGER NOT NULL,
    exceptional_success INTEGER NOT NULL,
    botch               INTEGER NOT NULL,
    PRIMARY KEY (guild_id, channel_id, roller_id, span, bucket, private, ruleset, shape)
);

CREATE TABLE stat_first (
    roll_id BIGINT PRIMARY KEY REFERENCES rolls (id) ON DELETE CASCADE,
    outcome TEXT
);
