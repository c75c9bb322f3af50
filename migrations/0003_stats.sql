-- Dice statistics (issue 15): counters kept with every roll, so /stats reads a
-- few rows however long the log grows.
--
-- Each roll is counted at four levels (channel and member, channel and
-- everyone, server and member, server and everyone: channel_id 0 and
-- roller_id 0 stand for "every channel" and "everyone", never a snowflake) and
-- in three time buckets (span 'all': bucket 0, every roll; span 'day': days
-- since 1970-01-01 UTC; span 'month': year * 12 + month - 1), so any scope is
-- one row per ruleset (and per request shape), and any `since` a read of whole
-- months plus the days of one month. ``private`` keeps secret rolls apart:
-- a member sees others' secret rolls in no total.
--
-- The store changes these rows in the transaction that writes the roll, spends
-- Will on it, takes a Beat on it or voids it (bot/store/stats.py); a voided
-- roll counts nowhere. This file also counts the rolls already in the log.

-- What rolls read now: outcomes after Will and Beats, every face drawn.
CREATE TABLE stat_tally (
    guild_id            INTEGER NOT NULL,
    channel_id          INTEGER NOT NULL,
    roller_id           INTEGER NOT NULL,
    span                TEXT NOT NULL CHECK (span IN ('all', 'day', 'month')),
    bucket              INTEGER NOT NULL,
    private             INTEGER NOT NULL CHECK (private IN (0, 1)),
    ruleset             TEXT NOT NULL,
    rolls               INTEGER NOT NULL,
    dice                INTEGER NOT NULL,
    -- rolls with Will declared up front or spent afterwards
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
) STRICT, WITHOUT ROWID;

-- The requests rolled (engine.stats.shape_of: the request with its terms summed
-- into one) and the outcomes they had as first rolled, before Will spent
-- afterwards or a Beat: what the exact odds are compared with.
CREATE TABLE stat_shapes (
    guild_id            INTEGER NOT NULL,
    channel_id          INTEGER NOT NULL,
    roller_id           INTEGER NOT NULL,
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

-- The outcome a roll had as first rolled, kept once Will or a Beat re-reads it
-- (a roll without a row here still reads as first rolled). NULL: unknown (Will
-- spent before this migration replaced the first reading): such a roll is
-- left out of the comparison with the odds.
CREATE TABLE stat_first (
    roll_id INTEGER PRIMARY KEY REFERENCES rolls (id) ON DELETE CASCADE,
    outcome TEXT
) STRICT;

-- The log so far. A Beat is only ever taken on a failure.
INSERT INTO stat_first (roll_id, outcome)
SELECT id, CASE WHEN will_state = 'spent' THEN NULL ELSE 'failure' END
FROM rolls
WHERE will_state = 'spent' OR beat = 1;

INSERT INTO stat_tally
SELECT guild_id, channel_id, roller_id, span, bucket, private, ruleset,
       count(*), sum(dice), sum(will), sum(outcome = 'dramatic_failure'),
       sum(outcome = 'failure'), sum(outcome = 'success'),
       sum(outcome = 'exceptional_success'), sum(outcome = 'botch'),
       sum(f1), sum(f2), sum(f3), sum(f4), sum(f5), sum(f6), sum(f7), sum(f8), sum(f9),
       sum(f10)
FROM (
    SELECT r.guild_id,
           CASE WHEN level.channel THEN r.channel_id ELSE 0 END AS channel_id,
           CASE WHEN level.roller THEN r.roller_id ELSE 0 END AS roller_id,
           spans.span,
           CASE spans.span
               WHEN 'all' THEN 0
               WHEN 'day' THEN CAST(julianday(substr(r.created_at, 1, 10)) - 2440587.5 AS INTEGER)
               ELSE CAST(substr(r.created_at, 1, 4) AS INTEGER) * 12
                    + CAST(substr(r.created_at, 6, 2) AS INTEGER) - 1
           END AS bucket,
           r.private,
           json_extract(r.request_json, '$.ruleset') AS ruleset,
           r.will_state IN ('declared', 'spent') AS will,
           json_extract(r.result_json, '$.outcome') AS outcome,
           faces.dice, faces.f1, faces.f2, faces.f3, faces.f4, faces.f5, faces.f6, faces.f7,
           faces.f8, faces.f9, faces.f10
    FROM rolls AS r
    JOIN (
        SELECT r.id,
               count(d.value) AS dice,
               coalesce(sum(json_extract(d.value, '$[0]') = 1), 0) AS f1,
               coalesce(sum(json_extract(d.value, '$[0]') = 2), 0) AS f2,
               coalesce(sum(json_extract(d.value, '$[0]') = 3), 0) AS f3,
               coalesce(sum(json_extract(d.value, '$[0]') = 4), 0) AS f4,
               coalesce(sum(json_extract(d.value, '$[0]') = 5), 0) AS f5,
               coalesce(sum(json_extract(d.value, '$[0]') = 6), 0) AS f6,
               coalesce(sum(json_extract(d.value, '$[0]') = 7), 0) AS f7,
               coalesce(sum(json_extract(d.value, '$[0]') = 8), 0) AS f8,
               coalesce(sum(json_extract(d.value, '$[0]') = 9), 0) AS f9,
               coalesce(sum(json_extract(d.value, '$[0]') = 10), 0) AS f10
        FROM rolls AS r
        LEFT JOIN json_each(r.result_json, '$.dice') AS d
        WHERE r.void = 0
        GROUP BY r.id
    ) AS faces ON faces.id = r.id
    CROSS JOIN (
        SELECT 1 AS channel, 1 AS roller UNION ALL SELECT 1, 0
        UNION ALL SELECT 0, 1 UNION ALL SELECT 0, 0
    ) AS level
    CROSS JOIN (SELECT 'all' AS span UNION ALL SELECT 'day' UNION ALL SELECT 'month') AS spans
)
GROUP BY guild_id, channel_id, roller_id, span, bucket, private, ruleset;

INSERT INTO stat_shapes
SELECT guild_id, channel_id, roller_id, span, bucket, private, ruleset, shape,
       count(*), sum(outcome = 'dramatic_failure'), sum(outcome = 'failure'),
       sum(outcome = 'success'), sum(outcome = 'exceptional_success'),
       sum(outcome = 'botch')
FROM (
    SELECT r.guild_id,
           CASE WHEN level.channel THEN r.channel_id ELSE 0 END AS channel_id,
           CASE WHEN level.roller THEN r.roller_id ELSE 0 END AS roller_id,
           spans.span,
           CASE spans.span
               WHEN 'all' THEN 0
               WHEN 'day' THEN CAST(julianday(substr(r.created_at, 1, 10)) - 2440587.5 AS INTEGER)
               ELSE CAST(substr(r.created_at, 1, 4) AS INTEGER) * 12
                    + CAST(substr(r.created_at, 6, 2) AS INTEGER) - 1
           END AS bucket,
           r.private,
           json_extract(r.request_json, '$.ruleset') AS ruleset,
           json_set(r.request_json, '$.terms', json_array(json_object(
               'label', NULL,
               'value', (SELECT coalesce(sum(json_extract(t.value, '$.value')), 0)
                         FROM json_each(r.request_json, '$.terms') AS t)
           ))) AS shape,
           CASE WHEN first.roll_id IS NULL THEN json_extract(r.result_json, '$.outcome')
                ELSE first.outcome END AS outcome
    FROM rolls AS r
    LEFT JOIN stat_first AS first ON first.roll_id = r.id
    CROSS JOIN (
        SELECT 1 AS channel, 1 AS roller UNION ALL SELECT 1, 0
        UNION ALL SELECT 0, 1 UNION ALL SELECT 0, 0
    ) AS level
    CROSS JOIN (SELECT 'all' AS span UNION ALL SELECT 'day' UNION ALL SELECT 'month') AS spans
    WHERE r.void = 0 AND NOT (first.roll_id IS NOT NULL AND first.outcome IS NULL)
)
GROUP BY guild_id, channel_id, roller_id, span, bucket, private, ruleset, shape;
