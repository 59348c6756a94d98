-- ../0006_values_not_sentences.sql: stored rows hold values, not English sentences; the rows
-- the bot needs to find its own messages again.
--
-- SQLite's migration also rewrote rows written by versions before it (results of four shapes,
-- outbox rows holding sentences). No PostgreSQL database holds such rows: PostgreSQL came
-- after this migration, and a PostgreSQL database is made by a version that writes values
-- only. So here are only the schema's changes.

ALTER TABLE outbox ADD COLUMN given_up BIGINT NOT NULL DEFAULT 0;

ALTER TABLE games ADD COLUMN lobby_message_id BIGINT;

CREATE TABLE dm_prompts (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL,
    ply        BIGINT NOT NULL,            -- the ply the prompt asked to play
    channel_id BIGINT NOT NULL,            -- the DM channel
    message_id BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE TABLE guild_prefs (
    guild_id BIGINT PRIMARY KEY,
    language TEXT                          -- 'en' / 'ru', NULL: each user's own
);
