-- Bots are driven by timers too. When a bot is to move, its game gets a timer of kind 'bot'
-- (due at once) instead of a deadline: whoever fires due timers (the bot's scheduler) plays
-- the bot's move. So a bot on turn is never forgotten, after a kick, a resignation, a timed-out
-- seat taken over, or a restart: the row says so.
-- SQLite cannot change a CHECK constraint in place, hence the new table.

CREATE TABLE timers_any_kind (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind     TEXT    NOT NULL CHECK (kind IN ('deadline', 'reminder', 'bot')),
    ply      INTEGER NOT NULL,             -- the ply the timer belongs to: stale when the game moved on
    due_at   INTEGER NOT NULL,
    fired_at INTEGER,
    PRIMARY KEY (game_id, kind)
) WITHOUT ROWID;
INSERT INTO timers_any_kind (game_id, kind, ply, due_at, fired_at)
    SELECT game_id, kind, ply, due_at, fired_at FROM timers;
DROP TABLE timers;
ALTER TABLE timers_any_kind RENAME TO timers;
CREATE INDEX timers_due ON timers (due_at) WHERE fired_at IS NULL;
