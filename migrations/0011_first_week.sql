-- * user_prefs.dms_refused_at: when Discord last refused a DM to the user (50007: their DMs
--   are closed to the bot). The bot does not try again for a week, or until the user changes
--   how they are reminded (`/jackal remind via`). NULL: DMs open, or never refused.
-- * user_prefs.dms_told: the user was told (once, in a game's thread) that their DMs are
--   closed and how to open them; cleared when a DM goes through again.
-- * user_prefs.locale: the language of the user's Discord client, as their latest
--   interaction said it (`en`, `ru`): what their DMs speak when they chose no language.

ALTER TABLE user_prefs ADD COLUMN dms_refused_at INTEGER;
ALTER TABLE user_prefs ADD COLUMN dms_told INTEGER NOT NULL DEFAULT 0;
ALTER TABLE user_prefs ADD COLUMN locale TEXT;

-- Public posts that ask a question with buttons (a pause vote, "Take my seat back"), so that
-- their buttons go once the question is answered. `question`: `pause_vote`, or `reclaim:T`
-- for team T's seat.
CREATE TABLE questions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    question   TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, question, message_id)
) WITHOUT ROWID;
