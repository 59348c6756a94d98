-- ../0009_vacation_charge.sql: when a vacation's charge began; the teams that refused a pause.
ALTER TABLE vacations ADD COLUMN held_from BIGINT;
ALTER TABLE pauses ADD COLUMN refused TEXT NOT NULL DEFAULT '[]';
