-- PostgreSQL's mirror of migrations/0012_turn_actions_by_character.sql: the fistful turn
-- count is a character's (user_id 0, character_id the sheet's), or a member's own
-- actions without a sheet (character_id 0); the counts kept so far stay the members'.

ALTER TABLE turn_actions ADD COLUMN character_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE turn_actions DROP CONSTRAINT turn_actions_pkey;
ALTER TABLE turn_actions ADD PRIMARY KEY (guild_id, channel_id, character_id, user_id);
-- a member's own count or a character's, never both nor neither
ALTER TABLE turn_actions ADD CONSTRAINT turn_actions_one_counted
    CHECK ((user_id = 0) <> (character_id = 0));
