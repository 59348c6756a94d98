-- ../0011_first_week.sql: closed DMs remembered, the client's language, questions asked with
-- buttons.
ALTER TABLE user_prefs ADD COLUMN dms_refused_at BIGINT;
ALTER TABLE user_prefs ADD COLUMN dms_told BIGINT NOT NULL DEFAULT 0;
ALTER TABLE user_prefs ADD COLUMN locale TEXT;

CREATE TABLE questions (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    question   TEXT   NOT NULL,
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    PRIMARY KEY (game_id, question, message_id)
);
