-- The check PostgreSQL's store holds back with a transaction's writes and sends with its
-- COMMIT (bot/store/postgres.py, PgConnection): a conditional write that should have
-- changed one row, or a read the flow made before that should still answer as it did.
-- It raises SQLSTATE SB001 unless its argument is true, and the store runs the
-- transaction again statement by statement. A prepared statement calling it is planned
-- once per session, where an anonymous DO block was planned on every run.

CREATE FUNCTION storybot_check(ok BOOLEAN) RETURNS BOOLEAN
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF ok IS NOT TRUE THEN
        RAISE EXCEPTION 'a write missed its row, or a row read before has changed'
            USING ERRCODE = 'SB001';
    END IF;
    RETURN TRUE;
END
$$;
