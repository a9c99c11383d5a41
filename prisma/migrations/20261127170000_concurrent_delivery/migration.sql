-- Concurrent delivery with per-object order (docs/events.md, "Ordering: the promise, exactly"):
-- an endpoint has up to max_in_flight attempts at once, but never two about one object (one
-- order, one shipment, one claim), and an object's events go out oldest first.

-- What an event is about: its data's object, named by the type's first word (premium.reversed
-- is about an order). Every event's data is an object with an id; the event's own id stands in
-- should one ever lack it.
ALTER TABLE "events" ADD COLUMN "object_key" TEXT GENERATED ALWAYS AS (
  CASE split_part("type", '.', 1) WHEN 'shipment' THEN 'shipment:' WHEN 'claim' THEN 'claim:' ELSE 'order:' END
  || coalesce("data" ->> 'id', "id")
) STORED;

-- Each delivery carries its event's object, so the take can find an older pending delivery of
-- the same object for the same endpoint without reading events.
ALTER TABLE "webhook_deliveries" ADD COLUMN "object_key" TEXT;
UPDATE "webhook_deliveries" d SET "object_key" = e."object_key" FROM "events" e WHERE e."id" = d."event_id";
ALTER TABLE "webhook_deliveries" ALTER COLUMN "object_key" SET NOT NULL;
CREATE INDEX "webhook_deliveries_pending_object_idx" ON "webhook_deliveries"("endpoint_id", "object_key", "event_seq") WHERE "status" = 'pending';

-- How many attempts an endpoint may have in flight at once.
ALTER TABLE "webhook_endpoints" ADD COLUMN "max_in_flight" INTEGER NOT NULL DEFAULT 10
  CONSTRAINT "webhook_endpoints_max_in_flight_range" CHECK ("max_in_flight" BETWEEN 1 AND 50);
