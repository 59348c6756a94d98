-- The games of a channel are found by the channel or by the thread they are played in; only
-- the channel had an index, so the lookup read every game ever played.
CREATE INDEX games_thread ON games (thread_id, status);
