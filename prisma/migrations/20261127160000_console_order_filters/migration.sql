-- The console's order filters that pick a few orders of many (docs/console.md): cancelled orders,
-- and orders placed without protection where most take it. Partial indexes: they hold only those
-- rows, so every other order's write pays nothing for them, and the list reads the few in order.
-- The common side of each filter (created, selected) reads the list's own index, where nearly
-- every row matches.
CREATE INDEX "orders_store_id_cancelled_placed_idx" ON "orders"("store_id", "source_created_on", "id") WHERE "status" = 'cancelled';
CREATE INDEX "orders_store_id_unprotected_placed_idx" ON "orders"("store_id", "source_created_on", "id") WHERE NOT "insurance_selected";
