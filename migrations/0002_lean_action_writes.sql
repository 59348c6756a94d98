-- Fewer pages written per accepted action (issue 4, point 3).
--
-- An action used to dirty seven B-tree pages: the games row (its ply counter), the actions
-- table and its separate UNIQUE(game_id, ply) index, the timers table and its index, and the
-- outbox table and its index. Every dirty page is one more 4 KiB frame in the WAL at commit.
--
-- * actions: the table is now clustered on its key (WITHOUT ROWID, PRIMARY KEY (game_id, ply)),
--   so the key that makes a double click harmless costs no second B-tree, and a game's
--   actions sit together for the replay after a snapshot.
-- * games.ply goes: the action log already says how far a game is (MAX(ply), one seek in the
--   key above). A counter beside it was a second truth to keep in step, written every move.
--   Writers serialise on SQLite's write lock (BEGIN IMMEDIATE) before they read the ply.
-- * timers: one row per game and kind, updated in place (an upsert) instead of deleted and
--   inserted; the due-time index covers only timers that have not fired.
-- * outbox: the pending index covers only unsent rows, so it stays as small as the backlog
--   instead of growing with every message ever sent.

CREATE TABLE actions_keyed (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply         INTEGER NOT NULL,          -- 1, 2, 3 … one per accepted action
    team        INTEGER NOT NULL,
    user_id     INTEGER,                   -- who acted (NULL: a bot or a timeout)
    notation    TEXT    NOT NULL,
    action      TEXT    NOT NULL,          -- JSON engine action
    events      TEXT    NOT NULL,          -- JSON engine events
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
INSERT INTO actions_keyed
    SELECT game_id, ply, team, user_id, notation, action, events, created_at FROM actions;
DROP TABLE actions;
ALTER TABLE actions_keyed RENAME TO actions;

ALTER TABLE games DROP COLUMN ply;

CREATE TABLE timers_keyed (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind     TEXT    NOT NULL CHECK (kind IN ('deadline', 'reminder')),
    ply      INTEGER NOT NULL,             -- the ply the timer belongs to: stale when the game moved on
    due_at   INTEGER NOT NULL,
    fired_at INTEGER,
    PRIMARY KEY (game_id, kind)
) WITHOUT ROWID;
-- At most one unfired timer of each kind existed per game; a fired one is kept only when no
-- unfired one replaces it (ORDER BY puts unfired rows last, so they win the REPLACE).
INSERT OR REPLACE INTO timers_keyed (game_id, kind, ply, due_at, fired_at)
    SELECT game_id, kind, ply, due_at, fired_at FROM timers
    ORDER BY fired_at IS NULL, id;
DROP TABLE timers;
ALTER TABLE timers_keyed RENAME TO timers;
CREATE INDEX timers_due ON timers (due_at) WHERE fired_at IS NULL;

DROP INDEX outbox_pending;
CREATE INDEX outbox_pending ON outbox (next_at) WHERE sent_at IS NULL;
