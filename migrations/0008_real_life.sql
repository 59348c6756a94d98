-- Games that survive real life (issue "reminders you can tune, vacations, pauses, more time").
--
-- * seats.away_user_id: the player whose seat a bot took when their time ran out too often;
--   they may take it back while the game runs. NULL for every other seat.
-- * user_prefs: each player's reminders (a JSON list of minutes before the deadline, up to
--   three; [] for none; NULL: the game's setting), where they go ('dm' or 'thread'; NULL: a
--   DM where DMs are open), and the daily digest (minutes after local midnight; NULL: none).
--   The time zone and quiet hours were there already.
-- * timers: reminders come in slots (0–2), so the key gains the slot; new kinds end a pause
--   vote that nobody finished ('pause_vote') and a pause ('pause_end').
-- * user_timers: timers of a player rather than a game: the daily digest.
-- * guild_prefs: a server's vacation allowance (days a year) and its longest pause (days).
-- * vacations: a player's vacation in a server and what it has used of this year's allowance.
-- * pauses: a game's proposed or running pause.

ALTER TABLE seats ADD COLUMN away_user_id INTEGER;

ALTER TABLE user_prefs ADD COLUMN reminders TEXT;
ALTER TABLE user_prefs ADD COLUMN reminder_via TEXT CHECK (reminder_via IN ('dm', 'thread'));
ALTER TABLE user_prefs ADD COLUMN digest_minute INTEGER;

CREATE TABLE timers_slotted (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind     TEXT    NOT NULL
             CHECK (kind IN ('deadline', 'reminder', 'bot', 'pause_vote', 'pause_end')),
    slot     INTEGER NOT NULL DEFAULT 0,   -- a reminder's slot, 0–2; 0 for the other kinds
    ply      INTEGER NOT NULL,             -- the ply the timer belongs to: stale when the game moved on
    due_at   INTEGER NOT NULL,
    fired_at INTEGER,
    PRIMARY KEY (game_id, kind, slot)
) WITHOUT ROWID;
INSERT INTO timers_slotted (game_id, kind, slot, ply, due_at, fired_at)
    SELECT game_id, kind, 0, ply, due_at, fired_at FROM timers;
DROP TABLE timers;
ALTER TABLE timers_slotted RENAME TO timers;
CREATE INDEX timers_due ON timers (due_at) WHERE fired_at IS NULL;

CREATE TABLE user_timers (
    user_id  INTEGER NOT NULL,
    kind     TEXT    NOT NULL CHECK (kind IN ('digest')),
    due_at   INTEGER NOT NULL,
    fired_at INTEGER,
    PRIMARY KEY (user_id, kind)
) WITHOUT ROWID;
CREATE INDEX user_timers_due ON user_timers (due_at) WHERE fired_at IS NULL;

ALTER TABLE guild_prefs ADD COLUMN vacation_days INTEGER;
ALTER TABLE guild_prefs ADD COLUMN max_pause_days INTEGER;

CREATE TABLE vacations (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    year     INTEGER NOT NULL,              -- the calendar year (UTC) the allowance is for
    used_ms  INTEGER NOT NULL DEFAULT 0,    -- spent: deadlines moved on for the player
    until_ms INTEGER,                       -- on vacation until then; NULL: not on vacation
    PRIMARY KEY (guild_id, user_id, year)
) WITHOUT ROWID;

CREATE TABLE pauses (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    proposer    INTEGER NOT NULL,           -- the team that proposed it
    length_ms   INTEGER NOT NULL,
    proposed_at INTEGER NOT NULL,
    accepted    TEXT    NOT NULL,           -- JSON list of the teams that accepted
    ends_at     INTEGER                     -- NULL while it is a proposal; then the pause's end
);
