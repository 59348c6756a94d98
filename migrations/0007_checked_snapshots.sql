-- Damaged data is named, not trusted (issue 11): a snapshot is checked against its game before
-- it is used, and the action log carries a digest chained over its rows (store/digest.rs).
--
-- * actions.chain: SHA-256 over the previous row's chain (a value of the game's own for the
--   first row) and this row's ply, team, player, notation, action and events. A row changed,
--   copied from another game or removed no longer links to its neighbours.
-- * snapshots.checksum: SHA-256 over the game id, the ply, the chain at that ply and the state.
--   A snapshot copied from another game or another ply, a state edited, or a log rewritten
--   below it with its chain recomputed does not match, and the game is replayed from its log.
--
-- Rows written before this migration keep NULL in both columns: SQLite has no SHA-256 to fill
-- them here, and the action log refuses updates (0003). A NULL chain can only be a prefix of
-- a game's log (the chain then starts at its first chained row); a snapshot without a checksum
-- is not used: the game replays from its seed until its next snapshot is written, at most
-- 25 plies later (`jackal doctor` still compares it with the replay).
ALTER TABLE actions ADD COLUMN chain BLOB;
ALTER TABLE snapshots ADD COLUMN checksum BLOB;
