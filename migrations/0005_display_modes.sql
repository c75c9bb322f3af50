-- Display settings of a channel (issue 13): compact roll cards, and plain messages
-- without embeds for members whose client hides them. NULL: not set here.
ALTER TABLE channel_settings ADD COLUMN compact INTEGER CHECK (compact IN (0, 1));
ALTER TABLE channel_settings ADD COLUMN plain INTEGER CHECK (plain IN (0, 1));
