-- Undo by consent (issue 42): what migrations/0014_undo_by_consent.sql says, in PostgreSQL's
-- dialect. A take-back itself is a row of the action log (`{"TakeBack":{"to":P}}`): nothing
-- changes in `actions`.

CREATE TABLE undo_requests (
    game_id      BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    team         BIGINT NOT NULL CHECK (team BETWEEN 1 AND 4),
    user_id      BIGINT NOT NULL,
    at_ply       BIGINT NOT NULL,
    back_to      BIGINT NOT NULL CHECK (back_to < at_ply),
    requested_at BIGINT NOT NULL,
    accepted     TEXT   NOT NULL
);

ALTER TABLE timers DROP CONSTRAINT timers_kind_check;
ALTER TABLE timers ADD CONSTRAINT timers_kind_check
    CHECK (kind IN ('deadline', 'reminder', 'bot', 'pause_vote', 'pause_end', 'undo_vote'));
