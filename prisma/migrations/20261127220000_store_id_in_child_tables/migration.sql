-- The store's id on the tables that reached their store only through a parent (docs/scaling.md,
-- section 4): a table Citus distributes by store needs the column itself. Each is filled from its
-- parent and never null. No foreign key to stores: each row's parent already holds one, these rows
-- are written in their parent's transaction with the parent's store, and a key check per line item,
-- scan or delivery would take a share lock on the store's row each time.
ALTER TABLE order_line_items ADD COLUMN store_id uuid;
UPDATE order_line_items l SET store_id = o.store_id FROM orders o WHERE o.id = l.order_id;
ALTER TABLE order_line_items ALTER COLUMN store_id SET NOT NULL;

ALTER TABLE shipment_checkpoints ADD COLUMN store_id uuid;
UPDATE shipment_checkpoints c SET store_id = s.store_id FROM shipments s WHERE s.id = c.shipment_id;
ALTER TABLE shipment_checkpoints ALTER COLUMN store_id SET NOT NULL;

ALTER TABLE tracking_poll_outbox ADD COLUMN store_id uuid;
UPDATE tracking_poll_outbox t SET store_id = s.store_id FROM shipments s WHERE s.id = t.shipment_id;
ALTER TABLE tracking_poll_outbox ALTER COLUMN store_id SET NOT NULL;

ALTER TABLE claim_status_changes ADD COLUMN store_id uuid;
UPDATE claim_status_changes h SET store_id = c.store_id FROM claims c WHERE c.id = h.claim_id;
ALTER TABLE claim_status_changes ALTER COLUMN store_id SET NOT NULL;

ALTER TABLE claim_photo_objects ADD COLUMN store_id uuid;
UPDATE claim_photo_objects o SET store_id = p.store_id FROM claim_photos p WHERE p.id = o.photo_id;
ALTER TABLE claim_photo_objects ALTER COLUMN store_id SET NOT NULL;

ALTER TABLE webhook_deliveries ADD COLUMN store_id uuid;
UPDATE webhook_deliveries d SET store_id = w.store_id FROM webhook_endpoints w WHERE w.id = d.endpoint_id;
ALTER TABLE webhook_deliveries ALTER COLUMN store_id SET NOT NULL;

ALTER TABLE webhook_delivery_attempts ADD COLUMN store_id uuid;
UPDATE webhook_delivery_attempts a SET store_id = d.store_id
  FROM webhook_deliveries d WHERE d.id = a.delivery_id AND d.event_created_at = a.event_created_at;
-- An attempt whose delivery is gone (its endpoint deleted before attempts went with it) has no store.
DELETE FROM webhook_delivery_attempts WHERE store_id IS NULL;
ALTER TABLE webhook_delivery_attempts ALTER COLUMN store_id SET NOT NULL;

-- A decision now carries its store: the daily totals read it instead of looking the claim up.
CREATE OR REPLACE FUNCTION store_daily_totals_claim_decision() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change claim_status_changes;
  sign integer;
BEGIN
  FOREACH sign IN ARRAY CASE TG_OP WHEN 'INSERT' THEN ARRAY[1] WHEN 'DELETE' THEN ARRAY[-1] ELSE ARRAY[-1, 1] END LOOP
    IF sign = 1 THEN change := NEW; ELSE change := OLD; END IF;
    IF change.to_status IN ('approved', 'denied') THEN
      PERFORM store_daily_totals_add(change.store_id, (change.created_at AT TIME ZONE 'UTC')::date,
        p_claims_approved => sign * (change.to_status = 'approved')::int,
        p_claims_denied => sign * (change.to_status = 'denied')::int);
    END IF;
  END LOOP;
  RETURN NULL;
END $$;

DROP TRIGGER store_daily_totals_claim_decision_update ON claim_status_changes;
CREATE TRIGGER store_daily_totals_claim_decision_update AFTER UPDATE ON claim_status_changes
  FOR EACH ROW WHEN (OLD.store_id IS DISTINCT FROM NEW.store_id OR OLD.claim_id IS DISTINCT FROM NEW.claim_id
    OR OLD.to_status IS DISTINCT FROM NEW.to_status OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION store_daily_totals_claim_decision();
