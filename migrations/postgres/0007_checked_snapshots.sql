-- ../0007_checked_snapshots.sql: the action log's digest chain and snapshots' checksums.
ALTER TABLE actions ADD COLUMN chain BYTEA;
ALTER TABLE snapshots ADD COLUMN checksum BYTEA;
