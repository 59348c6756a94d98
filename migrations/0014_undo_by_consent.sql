-- Undo by consent (issue 42, point 6).
--
-- * undo_requests: a game's open request to take moves back, one at a time. `at_ply` is the
--   log's ply when it was asked: any action since voids it (the game moved on, so the table
--   would no longer be undoing what it agreed to). `back_to` is the ply the game returns to:
--   the one before the asker's last move. `accepted` is a JSON list of the teams that agreed,
--   the asker's first; a single refusal ends the request, so refusals are not kept.
-- * timers: a new kind ends a request nobody finished answering ('undo_vote').
--
-- A take-back that is agreed is a row of its own in the append-only action log, never a
-- removal: its action is `{"TakeBack":{"to":P}}`, and the state after it is the state after
-- ply P. The moves it took back stay in the log, so the history and the replay stay true.

CREATE TABLE undo_requests (
    game_id      INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    team         INTEGER NOT NULL CHECK (team BETWEEN 1 AND 4),
    user_id      INTEGER NOT NULL,
    at_ply       INTEGER NOT NULL,
    back_to      INTEGER NOT NULL CHECK (back_to < at_ply),
    requested_at INTEGER NOT NULL,
    accepted     TEXT    NOT NULL
);

CREATE TABLE timers_undoable (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind     TEXT    NOT NULL
             CHECK (kind IN ('deadline', 'reminder', 'bot', 'pause_vote', 'pause_end',
                             'undo_vote')),
    slot     INTEGER NOT NULL DEFAULT 0,   -- a reminder's slot, 0–2; 0 for the other kinds
    ply      INTEGER NOT NULL,             -- the ply the timer belongs to: stale when the game moved on
    due_at   INTEGER NOT NULL,
    fired_at INTEGER,
    PRIMARY KEY (game_id, kind, slot)
) WITHOUT ROWID;
INSERT INTO timers_undoable (game_id, kind, slot, ply, due_at, fired_at)
    SELECT game_id, kind, slot, ply, due_at, fired_at FROM timers;
DROP TABLE timers;
ALTER TABLE timers_undoable RENAME TO timers;
CREATE INDEX timers_due ON timers (due_at) WHERE fired_at IS NULL;
