-- ../0004_bot_timers.sql: bots are driven by timers of kind 'bot'.
ALTER TABLE timers DROP CONSTRAINT timers_kind_check;
ALTER TABLE timers ADD CONSTRAINT timers_kind_check
    CHECK (kind IN ('deadline', 'reminder', 'bot'));
