-- The console's shipments list (docs/console.md): a store's shipments newest first, keyset-paged over
-- (created_on, id), alone or by delivery status or by carrier (an unknown carrier is the courier
-- 'unknown'). Each index serves its filter and the order, read backwards.
CREATE INDEX "shipments_store_id_created_on_id_idx" ON "shipments"("store_id", "created_on", "id");
CREATE INDEX "shipments_store_id_delivery_status_created_on_id_idx" ON "shipments"("store_id", "delivery_status", "created_on", "id");
CREATE INDEX "shipments_store_id_courier_created_on_id_idx" ON "shipments"("store_id", "courier", "created_on", "id");
