-- Work that several bot processes share (issue 41, step 3): the outbox's rows and the timers
-- are claimed before they are sent or fired, by a lease that names who holds it and until
-- when. A process that dies holding a lease blocks nobody for long: once `claimed_until` has
-- passed, any process takes the row over.
--
-- One process on an SQLite file (the default) holds every lease itself; the columns cost it
-- nothing. A new timer (a row replaced by the next turn's) starts unclaimed.

ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until INTEGER;
ALTER TABLE timers ADD COLUMN claimed_by TEXT;
ALTER TABLE timers ADD COLUMN claimed_until INTEGER;
ALTER TABLE user_timers ADD COLUMN claimed_by TEXT;
ALTER TABLE user_timers ADD COLUMN claimed_until INTEGER;
