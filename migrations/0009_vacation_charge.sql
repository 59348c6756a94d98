-- * vacations.held_from: a vacation is charged to the allowance only once a deadline of the
--   player's would have passed: from then until the vacation's end. Coming back early gives
--   back what the rest would have cost. NULL: nothing held yet.
-- * pauses.refused: the teams that voted against a proposed pause (JSON list), so that a
--   3–4 player vote ends as soon as a majority can no longer be reached.

ALTER TABLE vacations ADD COLUMN held_from INTEGER;
ALTER TABLE pauses ADD COLUMN refused TEXT NOT NULL DEFAULT '[]';
