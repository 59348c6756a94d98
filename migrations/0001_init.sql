-- The first schema: games, seats, the append-only action log, snapshots, timers, the outbox
-- and user preferences. Times are Unix milliseconds (UTC); JSON columns hold serde values.

CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER,                 -- NULL for games played outside Discord
    channel_id    INTEGER,
    thread_id     INTEGER,
    status        TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    settings      TEXT    NOT NULL,        -- JSON: engine settings + turn time and policies
    seed          INTEGER,                 -- set at start (u64 stored as i64 bits)
    owner_id      INTEGER NOT NULL,
    language      TEXT    NOT NULL DEFAULT 'en',
    created_at    INTEGER NOT NULL,
    started_at    INTEGER,
    ended_at      INTEGER,
    result        TEXT,                    -- JSON outcome, or a service reason (cancelled, resigned)
    ply           INTEGER NOT NULL DEFAULT 0  -- accepted actions so far
);
CREATE INDEX games_channel ON games (channel_id, status);

CREATE TABLE seats (
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    team            INTEGER NOT NULL CHECK (team BETWEEN 1 AND 4),
    user_id         INTEGER,               -- a Discord user, or NULL for a bot seat
    bot_level       TEXT,                  -- set for bot seats
    joined_at       INTEGER NOT NULL,
    missed_deadlines INTEGER NOT NULL DEFAULT 0,
    resigned        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, team),
    CHECK ((user_id IS NULL) <> (bot_level IS NULL))
);
CREATE INDEX seats_user ON seats (user_id);

CREATE TABLE actions (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply         INTEGER NOT NULL,          -- 1, 2, 3 … one per accepted action
    team        INTEGER NOT NULL,
    user_id     INTEGER,                   -- who acted (NULL: a bot or a timeout)
    notation    TEXT    NOT NULL,
    action      TEXT    NOT NULL,          -- JSON engine action
    events      TEXT    NOT NULL,          -- JSON engine events
    created_at  INTEGER NOT NULL,
    UNIQUE (game_id, ply)
);

CREATE TABLE snapshots (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        INTEGER NOT NULL,
    state      TEXT    NOT NULL,           -- JSON engine state after `ply` actions
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE timers (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind     TEXT    NOT NULL CHECK (kind IN ('deadline', 'reminder')),
    ply      INTEGER NOT NULL,             -- the ply the timer belongs to: stale when the game moved on
    due_at   INTEGER NOT NULL,
    fired_at INTEGER
);
CREATE INDEX timers_due ON timers (fired_at, due_at);

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,           -- board_post, your_turn, game_over, notice …
    target     TEXT    NOT NULL,           -- JSON: a channel/thread or a user
    payload    TEXT    NOT NULL,           -- JSON: what to say (plain values, no Discord types)
    attempts   INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    next_at    INTEGER NOT NULL,           -- not before (backoff after a failure)
    sent_at    INTEGER,
    last_error TEXT
);
CREATE INDEX outbox_pending ON outbox (sent_at, next_at);

CREATE TABLE user_prefs (
    user_id     INTEGER PRIMARY KEY,
    language    TEXT,                      -- 'en' / 'ru', NULL: from the interaction's locale
    dms         INTEGER NOT NULL DEFAULT 1,
    quiet_start INTEGER,                   -- minutes after local midnight, NULL: no quiet hours
    quiet_end   INTEGER,
    time_zone   TEXT    NOT NULL DEFAULT 'UTC'
);
