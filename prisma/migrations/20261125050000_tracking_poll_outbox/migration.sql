-- Shipments whose first tracking poll is still to be queued. Registering a shipment writes its row
-- here in the same statement as the shipment (one round trip, no transaction), and every instance
-- moves the waiting rows into the job queue in batches, about once a second
-- (server/jobs/tracking-jobs.ts): the row and the job change hands in one transaction, so a crash
-- leaves the row waiting, never lost, and the queue's one-waiting-poll-per-shipment rule makes a
-- second move harmless.
CREATE TABLE "tracking_poll_outbox" (
  "shipment_id" UUID NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "tracking_poll_outbox_pkey" PRIMARY KEY ("shipment_id"),
  CONSTRAINT "tracking_poll_outbox_shipment_id_fkey" FOREIGN KEY ("shipment_id") REFERENCES "shipments"("id") ON DELETE CASCADE
);

-- Moved oldest first.
CREATE INDEX "tracking_poll_outbox_created_at_idx" ON "tracking_poll_outbox"("created_at");
