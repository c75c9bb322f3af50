-- The `fistful` initiative pool of a channel (RULES.md §7): trait names a member's sheet
-- rolls for initiative when joining without a pool. NULL: not set here (Dexterity + Composure).
ALTER TABLE channel_settings ADD COLUMN initiative_pool TEXT
    CHECK (initiative_pool IS NULL OR length(initiative_pool) BETWEEN 1 AND 100);
