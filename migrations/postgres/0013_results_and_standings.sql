-- ../0013_results_and_standings.sql: each rated seat's result, leaderboards kept summed per
-- ladder, period and format, their bands counted by triggers, seats' missed deadlines in all.

ALTER TABLE seats ADD COLUMN missed_total BIGINT NOT NULL DEFAULT 0;
UPDATE seats SET missed_total = missed_deadlines;

CREATE TABLE game_results (
    game_id          BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    team             BIGINT NOT NULL CHECK (team BETWEEN 1 AND 4),
    player           TEXT   NOT NULL,   -- as in ratings: `user:<id>` or `bot:<level>`
    guild_id         BIGINT NOT NULL,
    side             BIGINT NOT NULL CHECK (side BETWEEN 1 AND 4),   -- the side's lowest team
    format           TEXT   NOT NULL CHECK (format IN ('duel', 'three', 'four', 'pairs')),
    rank             BIGINT NOT NULL,   -- the side's: 1 first, ties shared
    won              BIGINT NOT NULL,
    left_early       BIGINT NOT NULL,
    gold             BIGINT,            -- NULL: a game rated before this table
    pirates_lost     BIGINT,            -- NULL: likewise
    missed_deadlines BIGINT NOT NULL,
    ended_at         BIGINT NOT NULL,
    PRIMARY KEY (game_id, team)
);

CREATE INDEX game_results_by_player ON game_results (player, guild_id, game_id);

CREATE TABLE standings (
    scope   BIGINT           NOT NULL,
    period  TEXT             NOT NULL,
    format  TEXT             NOT NULL CHECK (format IN ('any', 'duel', 'three', 'four', 'pairs')),
    user_id BIGINT           NOT NULL,
    points  DOUBLE PRECISION NOT NULL,
    games   BIGINT           NOT NULL,
    wins    BIGINT           NOT NULL,
    PRIMARY KEY (scope, period, format, user_id)
);

CREATE INDEX standings_board ON standings (scope, period, format, points DESC, wins DESC, user_id);

-- `people` is an INTEGER (not BIGINT like the rest): its SUM is then a BIGINT, which the
-- store reads, where a SUM of BIGINTs would be a numeric.
CREATE TABLE standing_counts (
    scope  BIGINT  NOT NULL,
    period TEXT    NOT NULL,
    format TEXT    NOT NULL,
    band   BIGINT  NOT NULL,   -- floor(points)
    people INTEGER NOT NULL,
    PRIMARY KEY (scope, period, format, band)
);

-- A standing counted in its band when it is written, and moved when its points leave it.
CREATE FUNCTION standings_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        IF floor(OLD.points) = floor(NEW.points) THEN
            RETURN NULL;
        END IF;
        UPDATE standing_counts c SET people = c.people - 1
        WHERE c.scope = OLD.scope AND c.period = OLD.period AND c.format = OLD.format
          AND c.band = floor(OLD.points);
    END IF;
    INSERT INTO standing_counts AS c (scope, period, format, band, people)
    VALUES (NEW.scope, NEW.period, NEW.format, floor(NEW.points), 1)
    ON CONFLICT (scope, period, format, band) DO UPDATE SET people = c.people + 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER standings_counted AFTER INSERT ON standings
    FOR EACH ROW EXECUTE FUNCTION standings_count();
CREATE TRIGGER standings_recounted AFTER UPDATE OF points ON standings
    FOR EACH ROW EXECUTE FUNCTION standings_count();

-- Games rated before this migration: their seats and their standings, from what was stored
-- (the gold and pirates of their last position are not kept in rows: left unknown).
INSERT INTO game_results (game_id, team, player, guild_id, side, format, rank, won, left_early,
                          gold, pirates_lost, missed_deadlines, ended_at)
SELECT rc.game_id, rc.team, rc.player, rc.scope,
       CASE WHEN g.settings::jsonb #>> '{rules,players}' = 'TwoVsTwo' AND rc.team > 2
            THEN rc.team - 2 ELSE rc.team END,
       CASE g.settings::jsonb #>> '{rules,players}'
            WHEN 'Two' THEN 'duel' WHEN 'Three' THEN 'three' WHEN 'Four' THEN 'four'
            ELSE 'pairs' END,
       rc.rank,
       (rc.rank = 1
        AND EXISTS (SELECT 1 FROM jsonb_array_elements(
                        COALESCE(g.result::jsonb -> 'winners', '[]'::jsonb)) w
                    WHERE (w.value)::bigint = rc.team
                       OR (g.settings::jsonb #>> '{rules,players}' = 'TwoVsTwo'
                           AND (w.value)::bigint % 2 = rc.team % 2))
        AND COALESCE((g.result::jsonb ->> 'draw')::boolean, false) = false)::int,
       (s.resigned <> 0 OR s.away_user_id IS NOT NULL OR s.kicked_user_id IS NOT NULL)::int,
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
               WHEN 'week' THEN 'w' || to_char(date_trunc('week',
                   to_timestamp(r.ended_at / 1000) AT TIME ZONE 'UTC'), 'YYYY-MM-DD')
               ELSE 'm' || to_char(to_timestamp(r.ended_at / 1000) AT TIME ZONE 'UTC', 'YYYY-MM')
           END AS period,
           CASE w.which WHEN 'any' THEN 'any' ELSE r.format END AS format,
           CAST(substr(rc.player, 6) AS BIGINT) AS user_id,
           (rc.mu_after - 3 * rc.sigma_after) - (rc.mu_before - 3 * rc.sigma_before) AS points,
           r.won AS won
    FROM rating_changes rc
    JOIN game_results r ON r.game_id = rc.game_id AND r.team = rc.team
    CROSS JOIN (VALUES ('all'), ('week'), ('month')) AS k (kind)
    CROSS JOIN (VALUES ('any'), ('own')) AS w (which)
    WHERE rc.player LIKE 'user:%'
) AS seat_points
GROUP BY scope, period, format, user_id;
