-- What a finished game leaves behind for stats and leaderboards, written in the transaction
-- that ends it, beside its ratings (0012).
--
-- * game_results: each seat of a rated game: who played it, where it stood at the end (its
--   side's rank, whether it won, whether its player left early), the gold its team carried
--   home, its pirates lost and the deadlines it missed. `/jackal stats` reads it.
-- * standings: a leaderboard's rows kept summed, so that a page is one index range however
--   many games were played: per ladder (a guild, 0 for every server), period ('all', the week
--   'w<yyyy-mm-dd of its Monday>', the month 'm<yyyy-mm>', UTC) and format ('any', or the
--   format of the games counted), each person's rating points won (the change of their shown
--   rating, summed: over all games on a ladder, their rating), games and wins. People only:
--   bots keep their own ladder in `ratings`.
-- * standing_counts: how many people each board holds in each band of points ([b, b + 1)),
--   kept by triggers: a place, a page's start and a board's size are then sums over a few
--   hundred bands and a count inside one, not a walk over every person above.
-- * seats.missed_total: the deadlines a seat missed over the whole game (`missed_deadlines`
--   counts those in a row, and starts again at the player's next move).

ALTER TABLE seats ADD COLUMN missed_total INTEGER NOT NULL DEFAULT 0;
UPDATE seats SET missed_total = missed_deadlines;

CREATE TABLE game_results (
    game_id          INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    team             INTEGER NOT NULL CHECK (team BETWEEN 1 AND 4),
    player           TEXT    NOT NULL,   -- as in ratings: `user:<id>` or `bot:<level>`
    guild_id         INTEGER NOT NULL,
    side             INTEGER NOT NULL CHECK (side BETWEEN 1 AND 4),   -- the side's lowest team
    format           TEXT    NOT NULL CHECK (format IN ('duel', 'three', 'four', 'pairs')),
    rank             INTEGER NOT NULL,   -- the side's: 1 first, ties shared
    won              INTEGER NOT NULL,
    left_early       INTEGER NOT NULL,
    gold             INTEGER,            -- NULL: a game rated before this table
    pirates_lost     INTEGER,            -- NULL: likewise
    missed_deadlines INTEGER NOT NULL,
    ended_at         INTEGER NOT NULL,
    PRIMARY KEY (game_id, team)
) WITHOUT ROWID;

CREATE INDEX game_results_by_player ON game_results (player, guild_id, game_id);

CREATE TABLE standings (
    scope   INTEGER NOT NULL,
    period  TEXT    NOT NULL,
    format  TEXT    NOT NULL CHECK (format IN ('any', 'duel', 'three', 'four', 'pairs')),
    user_id INTEGER NOT NULL,
    points  REAL    NOT NULL,
    games   INTEGER NOT NULL,
    wins    INTEGER NOT NULL,
    PRIMARY KEY (scope, period, format, user_id)
) WITHOUT ROWID;

-- A page: the best first, ties by wins, then by player for a stable order.
CREATE INDEX standings_board ON standings (scope, period, format, points DESC, wins DESC, user_id);

CREATE TABLE standing_counts (
    scope  INTEGER NOT NULL,
    period TEXT    NOT NULL,
    format TEXT    NOT NULL,
    band   INTEGER NOT NULL,   -- floor(points): truncated, less one below a negative fraction
    people INTEGER NOT NULL,
    PRIMARY KEY (scope, period, format, band)
) WITHOUT ROWID;

CREATE TRIGGER standings_counted AFTER INSERT ON standings BEGIN
    INSERT INTO standing_counts (scope, period, format, band, people)
    VALUES (NEW.scope, NEW.period, NEW.format,
            CAST(NEW.points AS INTEGER) - (NEW.points < CAST(NEW.points AS INTEGER)), 1)
    ON CONFLICT (scope, period, format, band) DO UPDATE SET people = people + 1;
END;

CREATE TRIGGER standings_recounted AFTER UPDATE OF points ON standings
WHEN CAST(OLD.points AS INTEGER) - (OLD.points < CAST(OLD.points AS INTEGER))
  <> CAST(NEW.points AS INTEGER) - (NEW.points < CAST(NEW.points AS INTEGER)) BEGIN
    UPDATE standing_counts SET people = people - 1
    WHERE scope = OLD.scope AND period = OLD.period AND format = OLD.format
      AND band = CAST(OLD.points AS INTEGER) - (OLD.points < CAST(OLD.points AS INTEGER));
    INSERT INTO standing_counts (scope, period, format, band, people)
    VALUES (NEW.scope, NEW.period, NEW.format,
            CAST(NEW.points AS INTEGER) - (NEW.points < CAST(NEW.points AS INTEGER)), 1)
    ON CONFLICT (scope, period, format, band) DO UPDATE SET people = people + 1;
END;

-- Games rated before this migration: their seats and their standings, from what was stored
-- (the gold and pirates of their last position are not kept in rows: left unknown).
INSERT INTO game_results (game_id, team, player, guild_id, side, format, rank, won, left_early,
                          gold, pirates_lost, missed_deadlines, ended_at)
SELECT rc.game_id, rc.team, rc.player, rc.scope,
       CASE WHEN json_extract(g.settings, '$.rules.players') = 'TwoVsTwo' AND rc.team > 2
            THEN rc.team - 2 ELSE rc.team END,
       CASE json_extract(g.settings, '$.rules.players')
            WHEN 'Two' THEN 'duel' WHEN 'Three' THEN 'three' WHEN 'Four' THEN 'four'
            ELSE 'pairs' END,
       rc.rank,
       rc.rank = 1 AND EXISTS (SELECT 1 FROM json_each(g.result, '$.winners') w
               WHERE w.value = rc.team OR (json_extract(g.settings, '$.rules.players') = 'TwoVsTwo'
                                           AND w.value % 2 = rc.team % 2))
           AND COALESCE(json_extract(g.result, '$.draw'), 0) = 0,
       s.resigned OR s.away_user_id IS NOT NULL OR s.kicked_user_id IS NOT NULL,
       NULL, NULL, s.missed_total, COALESCE(g.ended_at, 0)
FROM rating_changes rc
JOIN games g ON g.id = rc.game_id
JOIN seats s ON s.game_id = rc.game_id AND s.team = rc.team
WHERE rc.scope <> 0;

INSERT INTO standings (scope, period, format, user_id, points, games, wins)
SELECT scope, period, format, user_id, SUM(points), COUNT(*), SUM(won)
FROM (
    SELECT rc.scope AS scope,
           CASE k.kind
               WHEN 'all' THEN 'all'
               WHEN 'week' THEN 'w' || date(r.ended_at / 1000, 'unixepoch', 'weekday 0', '-6 days')
               ELSE 'm' || strftime('%Y-%m', r.ended_at / 1000, 'unixepoch') END AS period,
           CASE w.which WHEN 'any' THEN 'any' ELSE r.format END AS format,
           CAST(substr(rc.player, 6) AS INTEGER) AS user_id,
           (rc.mu_after - 3 * rc.sigma_after) - (rc.mu_before - 3 * rc.sigma_before) AS points,
           r.won AS won
    FROM rating_changes rc
    JOIN game_results r ON r.game_id = rc.game_id AND r.team = rc.team
    CROSS JOIN (SELECT 'all' AS kind UNION ALL SELECT 'week' UNION ALL SELECT 'month') k
    CROSS JOIN (SELECT 'any' AS which UNION ALL SELECT 'own') w
    WHERE rc.player LIKE 'user:%'
)
GROUP BY scope, period, format, user_id;
