-- The Discord bot (issue 9): stored rows hold values, not English sentences, and the bot gets
-- the few rows it needs to find its own messages again.
--
-- * games.result held four JSON shapes that readers probed (an engine outcome as it was,
--   {"cancelled": true}, {"resigned": T, "winners": [W]}, and {} from imports). It now holds
--   one tagged value, the service's GameEnd: {"end": "played" | "resigned" | "cancelled" |
--   "thread_deleted", …}. {} meant "unknown" and becomes NULL.
-- * Outbox payloads held sentences ("Team 2 resigned; a bot plays on.", a board post's lines,
--   "Game over: team 1 won (stall)"), which cannot be told in another language. They now hold
--   values: a board post names its plies (the events are in the action log), a notice is a
--   kind and a team, a game over carries the GameEnd. Public rows target the game ({"to":
--   "game"}: its thread once it has one) instead of the channel known when they were written.
--   A cancellation is a game over with end "cancelled". A row this version cannot read (a
--   sentence it does not know, or not JSON at all) is closed as given up: it would otherwise
--   be sent in English, or fail, forever.
-- * outbox.given_up marks a row the sender gave up on (403, 404, unreadable): it also has a
--   sent_at, so the pending index stays as it is.
-- * games.lobby_message_id: the lobby message, edited as seats and settings change and used
--   to open the game's thread (a thread started from a message has the message's id, so the
--   bot can open it again after a crash without making a second one).
-- * dm_prompts: the private "your turn" message a player was last sent per game, whose
--   buttons go when the turn is over. Written by the sender after delivery, not by a move's
--   transaction, so a move still writes the pages it did.
-- * guild_prefs: a server's language (user_prefs already has the user's).

UPDATE games SET result = json_set(result, '$.end', 'played')
    WHERE json_extract(iif(json_valid(result), result, '{}'), '$.reason') IS NOT NULL;
UPDATE games SET result = json_object('end', 'cancelled')
    WHERE json_extract(iif(json_valid(result), result, '{}'), '$.cancelled') IS NOT NULL;
UPDATE games SET result = json_object(
        'end', 'resigned',
        'team', json_extract(result, '$.resigned'),
        'winners', json(json_extract(result, '$.winners')))
    WHERE json_extract(iif(json_valid(result), result, '{}'), '$.resigned') IS NOT NULL;
UPDATE games SET result = NULL
    WHERE result IS NOT NULL
      AND json_extract(iif(json_valid(result), result, '{}'), '$.end') IS NULL;

ALTER TABLE outbox ADD COLUMN given_up INTEGER NOT NULL DEFAULT 0;

-- Public rows go to the game's place.
UPDATE outbox SET target = json_object('to', 'game')
    WHERE kind IN ('board_post', 'game_started', 'game_over', 'notice') AND game_id IS NOT NULL;

UPDATE outbox SET payload = json_remove(payload, '$.lines')
    WHERE kind = 'board_post' AND json_valid(payload);

-- A duel lost by resignation was the only game over with a sentence beside a typed result.
UPDATE outbox SET payload = json_object(
        'kind', 'game_over',
        'game_id', game_id,
        'end', json((SELECT g.result FROM games g WHERE g.id = outbox.game_id)))
    WHERE kind = 'game_over'
      AND (SELECT g.result FROM games g WHERE g.id = outbox.game_id) IS NOT NULL;

-- Notices, by the sentences this project wrote (team numbers are one digit, 1 to 4).
UPDATE outbox SET kind = 'game_over', payload = json_object(
        'kind', 'game_over', 'game_id', game_id, 'end', json_object('end', 'cancelled'))
    WHERE kind = 'notice' AND json_extract(iif(json_valid(payload), payload, '{}'), '$.text') = 'The game was cancelled.';
UPDATE outbox SET payload = json_object('kind', 'notice', 'game_id', game_id,
        'notice', json_object('notice', 'kicked',
            'team', CAST(substr(json_extract(iif(json_valid(payload), payload, '{}'), '$.text'), 6, 1) AS INTEGER)))
    WHERE kind = 'notice' AND json_extract(iif(json_valid(payload), payload, '{}'), '$.text') GLOB 'Team [1-4]''s player was removed; a bot plays on.';
UPDATE outbox SET payload = json_object('kind', 'notice', 'game_id', game_id,
        'notice', json_object('notice', 'resigned',
            'team', CAST(substr(json_extract(iif(json_valid(payload), payload, '{}'), '$.text'), 6, 1) AS INTEGER)))
    WHERE kind = 'notice' AND json_extract(iif(json_valid(payload), payload, '{}'), '$.text') GLOB 'Team [1-4] resigned; a bot plays on.';
UPDATE outbox SET payload = json_object('kind', 'notice', 'game_id', game_id,
        'notice', json_object('notice', 'timed_out',
            'team', CAST(substr(json_extract(iif(json_valid(payload), payload, '{}'), '$.text'), 6, 1) AS INTEGER)))
    WHERE kind = 'notice' AND json_extract(iif(json_valid(payload), payload, '{}'), '$.text') GLOB 'Team [1-4]''s time ran out; a bot made the move.';
-- "Team 2 missed 3 deadlines in a row; a bot takes the seat.": the count starts at 15.
UPDATE outbox SET payload = json_object('kind', 'notice', 'game_id', game_id,
        'notice', json_object('notice', 'taken_over',
            'team', CAST(substr(json_extract(iif(json_valid(payload), payload, '{}'), '$.text'), 6, 1) AS INTEGER),
            'missed', CAST(substr(json_extract(iif(json_valid(payload), payload, '{}'), '$.text'), 15) AS INTEGER)))
    WHERE kind = 'notice' AND json_extract(iif(json_valid(payload), payload, '{}'), '$.text') GLOB 'Team [1-4] missed [0-9]* deadlines in a row; a bot takes the seat.';

-- Whatever still holds a sentence is closed, not sent.
UPDATE outbox SET given_up = 1, sent_at = COALESCE(sent_at, created_at),
        last_error = 'stored as an English sentence by an older version'
    WHERE NOT json_valid(payload)
       OR json_extract(iif(json_valid(payload), payload, '{}'), '$.text') IS NOT NULL
       OR (kind = 'game_over'
           AND json_extract(iif(json_valid(payload), payload, '{}'), '$.end') IS NULL);

ALTER TABLE games ADD COLUMN lobby_message_id INTEGER;

CREATE TABLE dm_prompts (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    ply        INTEGER NOT NULL,           -- the ply the prompt asked to play
    channel_id INTEGER NOT NULL,           -- the DM channel
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

CREATE TABLE guild_prefs (
    guild_id INTEGER PRIMARY KEY,
    language TEXT                          -- 'en' / 'ru', NULL: each user's own
);
