-- The store in every primary key and every foreign key between a store's tables (docs/scaling.md,
-- section 4): Citus enforces a primary key on a distributed table only when it includes the
-- distribution column, and keeps a foreign key only when both sides are joined on it.
--
-- Each key is as strict as before: an id was already unique on its own, so (id, store_id) holds
-- the same rows. The id stays the leading column, so a lookup by id alone (a carrier's webhook, a
-- job, a console link) is still one index probe; the store follows for Citus, which only needs it
-- somewhere in the key.
--
-- The foreign keys are dropped first, then the primary keys they lean on are re-made, then the
-- foreign keys come back paired with the store. A child row's store was already its parent's (every
-- writer takes it from the parent); the new keys make the database hold it so.

-- 1. The foreign keys between store tables.
ALTER TABLE orders DROP CONSTRAINT orders_quote_id_fkey;
ALTER TABLE order_line_items DROP CONSTRAINT order_line_items_order_id_fkey;
ALTER TABLE premium_ledger_entries DROP CONSTRAINT premium_ledger_entries_order_id_fkey;
ALTER TABLE premium_ledger_entries DROP CONSTRAINT premium_ledger_entries_refund_id_fkey;
ALTER TABLE shipments DROP CONSTRAINT shipments_order_id_fkey;
ALTER TABLE tracking_poll_outbox DROP CONSTRAINT tracking_poll_outbox_shipment_id_fkey;
ALTER TABLE shipment_checkpoints DROP CONSTRAINT shipment_checkpoints_shipment_id_fkey;
ALTER TABLE claims DROP CONSTRAINT claims_order_id_fkey;
ALTER TABLE claims DROP CONSTRAINT claims_shipment_id_fkey;
ALTER TABLE claim_photos DROP CONSTRAINT claim_photos_order_id_fkey;
ALTER TABLE claim_photos DROP CONSTRAINT claim_photos_claim_id_fkey;
ALTER TABLE claim_photo_objects DROP CONSTRAINT claim_photo_objects_photo_id_fkey;
ALTER TABLE claim_status_changes DROP CONSTRAINT claim_status_changes_claim_id_fkey;
ALTER TABLE fulfillments DROP CONSTRAINT fulfillments_order_id_fkey;
ALTER TABLE refunds DROP CONSTRAINT refunds_order_id_fkey;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_endpoint_id_fkey1;

-- 2. The primary keys, with the store.
ALTER TABLE quotes DROP CONSTRAINT quotes_pkey, ADD CONSTRAINT quotes_pkey PRIMARY KEY (id, store_id);
ALTER TABLE orders DROP CONSTRAINT orders_pkey, ADD CONSTRAINT orders_pkey PRIMARY KEY (id, store_id);
ALTER TABLE order_line_items DROP CONSTRAINT order_line_items_pkey, ADD CONSTRAINT order_line_items_pkey PRIMARY KEY (id, store_id);
ALTER TABLE premium_ledger_entries DROP CONSTRAINT premium_ledger_entries_pkey, ADD CONSTRAINT premium_ledger_entries_pkey PRIMARY KEY (id, store_id);
ALTER TABLE shipments DROP CONSTRAINT shipments_pkey, ADD CONSTRAINT shipments_pkey PRIMARY KEY (id, store_id);
ALTER TABLE tracking_poll_outbox DROP CONSTRAINT tracking_poll_outbox_pkey, ADD CONSTRAINT tracking_poll_outbox_pkey PRIMARY KEY (shipment_id, store_id);
ALTER TABLE shipment_checkpoints DROP CONSTRAINT shipment_checkpoints_pkey, ADD CONSTRAINT shipment_checkpoints_pkey PRIMARY KEY (id, store_id);
ALTER TABLE claims DROP CONSTRAINT claims_pkey, ADD CONSTRAINT claims_pkey PRIMARY KEY (id, store_id);
ALTER TABLE claim_photos DROP CONSTRAINT claim_photos_pkey, ADD CONSTRAINT claim_photos_pkey PRIMARY KEY (id, store_id);
ALTER TABLE claim_photo_objects DROP CONSTRAINT claim_photo_objects_pkey, ADD CONSTRAINT claim_photo_objects_pkey PRIMARY KEY (photo_id, store_id);
ALTER TABLE claim_status_changes DROP CONSTRAINT claim_status_changes_pkey, ADD CONSTRAINT claim_status_changes_pkey PRIMARY KEY (id, store_id);
ALTER TABLE fulfillments DROP CONSTRAINT fulfillments_pkey, ADD CONSTRAINT fulfillments_pkey PRIMARY KEY (id, store_id);
ALTER TABLE refunds DROP CONSTRAINT refunds_pkey, ADD CONSTRAINT refunds_pkey PRIMARY KEY (id, store_id);
ALTER TABLE test_mode_orders DROP CONSTRAINT test_mode_orders_pkey, ADD CONSTRAINT test_mode_orders_pkey PRIMARY KEY (id, store_id);
ALTER TABLE privacy_requests DROP CONSTRAINT privacy_requests_pkey, ADD CONSTRAINT privacy_requests_pkey PRIMARY KEY (id, store_id);
ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_pkey, ADD CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (id, store_id);
-- The day-partitioned tables: a partitioned table's key must hold its partition column too.
ALTER TABLE events DROP CONSTRAINT events_pkey, ADD CONSTRAINT events_pkey PRIMARY KEY (id, created_at, store_id);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_pkey, ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (id, event_created_at, store_id);
ALTER TABLE webhook_delivery_attempts DROP CONSTRAINT webhook_delivery_attempts_pkey, ADD CONSTRAINT webhook_delivery_attempts_pkey PRIMARY KEY (id, event_created_at, store_id);
ALTER TABLE request_log DROP CONSTRAINT request_log_pkey, ADD CONSTRAINT request_log_pkey PRIMARY KEY (id, at, store_id);

-- 3. The foreign keys again, paired with the store, with the same actions. Two of them set the
-- reference to null when the parent goes (neither quotes nor shipments are deleted today): only
-- that column, as the store is the row's own and never null.
ALTER TABLE orders ADD CONSTRAINT orders_quote_id_fkey FOREIGN KEY (quote_id, store_id) REFERENCES quotes (id, store_id) ON UPDATE CASCADE ON DELETE SET NULL (quote_id);
ALTER TABLE order_line_items ADD CONSTRAINT order_line_items_order_id_fkey FOREIGN KEY (order_id, store_id) REFERENCES orders (id, store_id) ON UPDATE CASCADE ON DELETE CASCADE;
ALTER TABLE premium_ledger_entries ADD CONSTRAINT premium_ledger_entries_order_id_fkey FOREIGN KEY (order_id, store_id) REFERENCES orders (id, store_id) ON UPDATE CASCADE ON DELETE RESTRICT;
ALTER TABLE premium_ledger_entries ADD CONSTRAINT premium_ledger_entries_refund_id_fkey FOREIGN KEY (refund_id, store_id) REFERENCES refunds (id, store_id) ON UPDATE CASCADE ON DELETE RESTRICT;
ALTER TABLE shipments ADD CONSTRAINT shipments_order_id_fkey FOREIGN KEY (order_id, store_id) REFERENCES orders (id, store_id) ON UPDATE CASCADE ON DELETE RESTRICT;
ALTER TABLE tracking_poll_outbox ADD CONSTRAINT tracking_poll_outbox_shipment_id_fkey FOREIGN KEY (shipment_id, store_id) REFERENCES shipments (id, store_id) ON UPDATE CASCADE ON DELETE CASCADE;
ALTER TABLE shipment_checkpoints ADD CONSTRAINT shipment_checkpoints_shipment_id_fkey FOREIGN KEY (shipment_id, store_id) REFERENCES shipments (id, store_id) ON UPDATE CASCADE ON DELETE RESTRICT;
ALTER TABLE claims ADD CONSTRAINT claims_order_id_fkey FOREIGN KEY (order_id, store_id) REFERENCES orders (id, store_id) ON UPDATE CASCADE ON DELETE RESTRICT;
ALTER TABLE claims ADD CONSTRAINT claims_shipment_id_fkey FOREIGN KEY (shipment_id, store_id) REFERENCES shipments (id, store_id) ON UPDATE CASCADE ON DELETE SET NULL (shipment_id);
ALTER TABLE claim_photos ADD CONSTRAINT claim_photos_order_id_fkey FOREIGN KEY (order_id, store_id) REFERENCES orders (id, store_id) ON UPDATE CASCADE ON DELETE RESTRICT;
ALTER TABLE claim_photos ADD CONSTRAINT claim_photos_claim_id_fkey FOREIGN KEY (claim_id, store_id) REFERENCES claims (id, store_id) ON UPDATE CASCADE ON DELETE RESTRICT;
ALTER TABLE claim_photo_objects ADD CONSTRAINT claim_photo_objects_photo_id_fkey FOREIGN KEY (photo_id, store_id) REFERENCES claim_photos (id, store_id) ON UPDATE CASCADE ON DELETE CASCADE;
ALTER TABLE claim_status_changes ADD CONSTRAINT claim_status_changes_claim_id_fkey FOREIGN KEY (claim_id, store_id) REFERENCES claims (id, store_id) ON UPDATE CASCADE ON DELETE RESTRICT;
ALTER TABLE fulfillments ADD CONSTRAINT fulfillments_order_id_fkey FOREIGN KEY (order_id, store_id) REFERENCES orders (id, store_id) ON UPDATE CASCADE ON DELETE RESTRICT;
ALTER TABLE refunds ADD CONSTRAINT refunds_order_id_fkey FOREIGN KEY (order_id, store_id) REFERENCES orders (id, store_id) ON UPDATE CASCADE ON DELETE RESTRICT;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_endpoint_id_fkey FOREIGN KEY (endpoint_id, store_id) REFERENCES webhook_endpoints (id, store_id) ON UPDATE CASCADE ON DELETE CASCADE;

-- 4. The audit log's store-less rows (an operator adding a platform) move to a table of their own,
-- kept on the coordinator and append-only like the store's; a store's audit rows then always name
-- their store.
CREATE OR REPLACE FUNCTION audit_events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only (% refused)', TG_TABLE_NAME, TG_OP;
END;
$$;
CREATE TABLE operator_audit_events (
  id           BIGSERIAL PRIMARY KEY,
  actor_kind   actor_kind NOT NULL,
  actor_id     text NOT NULL,
  action       text NOT NULL,
  subject_type text NOT NULL,
  subject_id   text NOT NULL,
  details      jsonb NOT NULL DEFAULT '{}',
  created_at   timestamptz(3) NOT NULL
);
CREATE INDEX operator_audit_events_subject_idx ON operator_audit_events (subject_type, subject_id);
CREATE TRIGGER operator_audit_events_append_only BEFORE UPDATE OR DELETE ON operator_audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_are_append_only();
CREATE TRIGGER operator_audit_events_no_truncate BEFORE TRUNCATE ON operator_audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_are_append_only();

INSERT INTO operator_audit_events (actor_kind, actor_id, action, subject_type, subject_id, details, created_at)
  SELECT actor_kind, actor_id, action, subject_type, subject_id, details, created_at FROM audit_events WHERE store_id IS NULL ORDER BY id;
-- The move is the one delete the append-only rule lets through: the rows live on, in the new table.
ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only;
DELETE FROM audit_events WHERE store_id IS NULL;
ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only;
ALTER TABLE audit_events ALTER COLUMN store_id SET NOT NULL;
ALTER TABLE audit_events DROP CONSTRAINT audit_events_pkey, ADD CONSTRAINT audit_events_pkey PRIMARY KEY (id, store_id);
