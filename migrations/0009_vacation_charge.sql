-- A vacation is charged to the allowance only once a deadline of the player's would have
-- passed: from then (held_from) until the vacation's end. Coming back early gives back what
-- the rest would have cost. NULL: nothing held yet.

ALTER TABLE vacations ADD COLUMN held_from INTEGER;
