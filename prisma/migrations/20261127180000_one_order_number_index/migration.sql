-- Two tidy-ups after the console's order search and concurrent delivery:
-- - The console's prefix index on the order number (text_pattern_ops) answers the claim page's
--   equality lookup as well, and the planner prefers it: the older plain index on the same
--   expression only cost every order write. Dropped.
-- - events.object_key is generated from values that are never null; said so, as schema.prisma does.
DROP INDEX "orders_store_id_order_number_key_idx";
ALTER TABLE "events" ALTER COLUMN "object_key" SET NOT NULL;
