-- The outbox sender reads the unsent rows in order, a page at a time, and stops once it has
-- found as many games as it may send to at once. After a burst (a thousand deadlines firing
-- together) the backlog is thousands of rows, and reading all of them on every pass, sorted
-- from the `next_at` index, cost more than sending. This index walks them in id order; like
-- outbox_pending it holds only unsent rows, so it stays as small as the backlog.

CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL;
