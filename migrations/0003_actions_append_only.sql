-- The action log is append-only (issue 4): a game is its seed and its actions, and every
-- state, snapshot and board post derives from them. SQLite itself now refuses to change or
-- remove a recorded action, whatever program opens the file. Removing a whole game (its row
-- in `games`) still takes its actions with it through the foreign key's ON DELETE CASCADE:
-- the delete trigger lets a row go only once its game is gone.

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only: a recorded action cannot be changed');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
WHEN EXISTS (SELECT 1 FROM games WHERE id = OLD.game_id)
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only: a recorded action cannot be removed');
END;
