-- The console's orders list (docs/console.md): a store's orders by the date they were placed,
-- newest first, keyset-paged over (source_created_on, id), and a search by prefix that stays an
-- index probe at a million orders. text_pattern_ops lets LIKE 'prefix%' use each index whatever
-- the database's collation; every expression here is the one the search writes.

-- The list and its date range: (store_id, source_created_on, id), read backwards. It serves all the
-- index on (store_id, source_created_on) served, which it replaces.
CREATE INDEX "orders_store_id_source_created_on_id_idx" ON "orders"("store_id", "source_created_on", "id");
DROP INDEX "orders_store_id_source_created_on_idx";

-- The order number as the store shows it, by prefix, however it is typed (order_number_key).
CREATE INDEX "orders_store_id_order_number_key_prefix_idx" ON "orders"("store_id", order_number_key("source_order_number") text_pattern_ops);

-- The shopper's email, first name then last ("ada lo"), and last name, by prefix, in lower case.
-- An erased order's columns are null and fall out of each index's matches.
CREATE INDEX "orders_store_id_email_prefix_idx" ON "orders"("store_id", lower("customer_email") text_pattern_ops);
CREATE INDEX "orders_store_id_full_name_prefix_idx" ON "orders"("store_id", lower(coalesce("customer_first_name", '') || ' ' || coalesce("customer_last_name", '')) text_pattern_ops);
CREATE INDEX "orders_store_id_last_name_prefix_idx" ON "orders"("store_id", lower("customer_last_name") text_pattern_ops);
