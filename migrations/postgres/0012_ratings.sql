-- ../0012_ratings.sql: ratings on each ladder, what each rated game changed, kicked players.
ALTER TABLE seats ADD COLUMN kicked_user_id BIGINT;

CREATE TABLE ratings (
    scope      BIGINT           NOT NULL,   -- a guild id; 0: every server together
    player     TEXT             NOT NULL,   -- `user:<id>` or `bot:<level>`
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    games      BIGINT           NOT NULL,
    updated_at BIGINT           NOT NULL,
    PRIMARY KEY (scope, player)
);

CREATE TABLE rating_changes (
    game_id      BIGINT           NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    scope        BIGINT           NOT NULL,
    team         BIGINT           NOT NULL CHECK (team BETWEEN 1 AND 4),
    player       TEXT             NOT NULL,
    rank         BIGINT           NOT NULL,   -- 1: first; equal ranks tied
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, scope, team)
);

CREATE INDEX rating_changes_by_player ON rating_changes (player, scope, game_id);
