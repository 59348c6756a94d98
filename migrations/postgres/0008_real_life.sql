-- ../0008_real_life.sql: seats a bot took over, players' reminders and digest, reminder slots
-- and pause timers, players' own timers, servers' limits, vacations, pauses.

ALTER TABLE seats ADD COLUMN away_user_id BIGINT;

ALTER TABLE user_prefs ADD COLUMN reminders TEXT;
ALTER TABLE user_prefs ADD COLUMN reminder_via TEXT CHECK (reminder_via IN ('dm', 'thread'));
ALTER TABLE user_prefs ADD COLUMN digest_minute BIGINT;

ALTER TABLE timers ADD COLUMN slot BIGINT NOT NULL DEFAULT 0;
ALTER TABLE timers DROP CONSTRAINT timers_pkey;
ALTER TABLE timers ADD PRIMARY KEY (game_id, kind, slot);
ALTER TABLE timers DROP CONSTRAINT timers_kind_check;
ALTER TABLE timers ADD CONSTRAINT timers_kind_check
    CHECK (kind IN ('deadline', 'reminder', 'bot', 'pause_vote', 'pause_end'));

CREATE TABLE user_timers (
    user_id  BIGINT NOT NULL,
    kind     TEXT   NOT NULL CHECK (kind IN ('digest')),
    due_at   BIGINT NOT NULL,
    fired_at BIGINT,
    PRIMARY KEY (user_id, kind)
);
CREATE INDEX user_timers_due ON user_timers (due_at) WHERE fired_at IS NULL;

ALTER TABLE guild_prefs ADD COLUMN vacation_days BIGINT;
ALTER TABLE guild_prefs ADD COLUMN max_pause_days BIGINT;

CREATE TABLE vacations (
    guild_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    year     BIGINT NOT NULL,               -- the calendar year (UTC) the allowance is for
    used_ms  BIGINT NOT NULL DEFAULT 0,     -- spent: deadlines moved on for the player
    until_ms BIGINT,                        -- on vacation until then; NULL: not on vacation
    PRIMARY KEY (guild_id, user_id, year)
);

CREATE TABLE pauses (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    proposer    BIGINT NOT NULL,            -- the team that proposed it
    length_ms   BIGINT NOT NULL,
    proposed_at BIGINT NOT NULL,
    accepted    TEXT   NOT NULL,            -- JSON list of the teams that accepted
    ends_at     BIGINT                      -- NULL while it is a proposal; then the pause's end
);
