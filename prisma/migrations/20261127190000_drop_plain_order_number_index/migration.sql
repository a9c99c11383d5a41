-- (store_id, source_order_number) served the claim page's lookup before order_number_key and the
-- console's exact search before its prefix search. Nothing reads by it any more; every order write
-- paid for it, and at a million orders its pages crowd the cache the hot paths need
-- (docs/performance.md, round three). Dropped.
DROP INDEX "orders_store_id_source_order_number_idx";
