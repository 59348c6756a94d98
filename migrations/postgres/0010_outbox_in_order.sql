-- ../0010_outbox_in_order.sql: the unsent rows, walked in id order.
CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL;
