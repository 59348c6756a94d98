-- ../0005_games_by_thread.sql: the games of a thread are found by an index.
CREATE INDEX games_thread ON games (thread_id, status);
