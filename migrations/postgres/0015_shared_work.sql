-- Work that several bot processes share (issue 41, step 3): what
-- migrations/0015_shared_work.sql says, in PostgreSQL's dialect.

ALTER TABLE outbox ADD COLUMN claimed_by TEXT, ADD COLUMN claimed_until BIGINT;
ALTER TABLE timers ADD COLUMN claimed_by TEXT, ADD COLUMN claimed_until BIGINT;
ALTER TABLE user_timers ADD COLUMN claimed_by TEXT, ADD COLUMN claimed_until BIGINT;
