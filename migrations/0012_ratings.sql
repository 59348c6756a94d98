-- Ratings (Weng-Lin, the OpenSkill family): every finished game of a server updates its
-- players' ratings on two ladders, the server's and the bot's whole (scope 0), from the final
-- ranking. A player is a person (`user:<id>`) or a bot level (`bot:<level>`): bots have
-- ratings of their own, which a leaderboard of people leaves out.
--
-- * ratings: a player's rating on one ladder now: `mu` and its uncertainty `sigma`; shown as
--   the conservative mu - 3 sigma.
-- * rating_changes: what each rated game did to each seat's rating, written in the game-over
--   transaction: the history a player's stats chart, and the change the game-over post shows.
-- * seats.kicked_user_id: the player removed from a running game (a bot plays on): rated, and
--   last, when the game ends.

ALTER TABLE seats ADD COLUMN kicked_user_id INTEGER;

CREATE TABLE ratings (
    scope      INTEGER NOT NULL,   -- a guild id; 0: every server together
    player     TEXT    NOT NULL,   -- `user:<id>` or `bot:<level>`
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (scope, player)
) WITHOUT ROWID;

CREATE TABLE rating_changes (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    scope        INTEGER NOT NULL,
    team         INTEGER NOT NULL CHECK (team BETWEEN 1 AND 4),
    player       TEXT    NOT NULL,
    rank         INTEGER NOT NULL,   -- 1: first; equal ranks tied
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    PRIMARY KEY (game_id, scope, team)
) WITHOUT ROWID;

CREATE INDEX rating_changes_by_player ON rating_changes (player, scope, game_id);
