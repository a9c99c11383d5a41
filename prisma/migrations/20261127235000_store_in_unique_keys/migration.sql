-- The store in every unique key of a store's table (docs/scaling.md, section 4): Citus enforces a
-- unique index on a distributed table only when it includes the distribution column. Each key
-- below is as strict as before: order numbers come from one sequence, and a line item, a scan or an
-- open claim already belongs to one order or shipment, hence to one store.
DROP INDEX orders_order_number_key;
CREATE UNIQUE INDEX orders_store_id_order_number_key ON orders (store_id, order_number);

DROP INDEX order_line_items_order_id_source_id_key;
CREATE UNIQUE INDEX order_line_items_store_id_order_id_source_id_key ON order_line_items (store_id, order_id, source_id);
DROP INDEX order_line_items_order_id_position_key;
CREATE UNIQUE INDEX order_line_items_store_id_order_id_position_key ON order_line_items (store_id, order_id, position);

DROP INDEX shipment_checkpoints_shipment_id_fingerprint_key;
CREATE UNIQUE INDEX shipment_checkpoints_store_id_shipment_id_fingerprint_key ON shipment_checkpoints (store_id, shipment_id, fingerprint);

-- One open claim per parcel: a double tap on the claim page, or the shopper and the store filing at
-- once, give one claim and a 409, never two. (Claims on the whole order have no shipment.)
DROP INDEX claims_one_open_per_shipment;
CREATE UNIQUE INDEX claims_one_open_per_shipment ON claims (store_id, shipment_id)
  WHERE shipment_id IS NOT NULL AND status IN ('open', 'in_review', 'approved');
