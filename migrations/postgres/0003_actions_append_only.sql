-- ../0003_actions_append_only.sql: the action log is append-only. A recorded action cannot be
-- changed, nor removed while its game is there (a game's removal takes its actions with it
-- through ON DELETE CASCADE, which runs once the game's row is gone). The error is an
-- integrity violation, as SQLite's RAISE(ABORT) in a trigger is a constraint violation.

CREATE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        RAISE EXCEPTION 'actions are append-only: a recorded action cannot be changed'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF EXISTS (SELECT 1 FROM games WHERE id = OLD.game_id) THEN
        RAISE EXCEPTION 'actions are append-only: a recorded action cannot be removed'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN OLD;
END
$$;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
    FOR EACH ROW EXECUTE FUNCTION actions_append_only();
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
    FOR EACH ROW EXECUTE FUNCTION actions_append_only();
