-- ../0002_lean_action_writes.sql: the action log keyed by (game, ply), no ply counter on the
-- game, one timer row per game and kind updated in place, partial indexes of what is pending.
-- PostgreSQL changes keys and columns in place where SQLite rebuilt its tables.

ALTER TABLE actions DROP CONSTRAINT actions_game_id_ply_key;
ALTER TABLE actions ADD PRIMARY KEY (game_id, ply);

ALTER TABLE games DROP COLUMN ply;

-- At most one unfired timer of each kind existed per game; a fired one is kept only when no
-- unfired one replaces it, the latest of each kind otherwise.
DELETE FROM timers t USING timers u
    WHERE u.game_id = t.game_id AND u.kind = t.kind AND u.id <> t.id
      AND ((u.fired_at IS NULL AND t.fired_at IS NOT NULL)
           OR ((u.fired_at IS NULL) = (t.fired_at IS NULL) AND u.id > t.id));
ALTER TABLE timers DROP COLUMN id;
ALTER TABLE timers ADD PRIMARY KEY (game_id, kind);
DROP INDEX timers_due;
CREATE INDEX timers_due ON timers (due_at) WHERE fired_at IS NULL;

DROP INDEX outbox_pending;
CREATE INDEX outbox_pending ON outbox (next_at) WHERE sent_at IS NULL;
