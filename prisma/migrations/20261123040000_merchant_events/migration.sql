-- Events to merchants (README, "Events and outbound webhooks"): a transactional outbox. A change
-- writes its event, and one delivery per endpoint subscribed to it, in its own transaction, so a
-- rolled-back change sends nothing and a committed one is never lost. Workers on any instance
-- then attempt the deliveries (server/jobs/event-delivery.ts).

CREATE TABLE "webhook_endpoints" (
  "id" TEXT PRIMARY KEY DEFAULT ('we_' || replace(gen_random_uuid()::text, '-', '')),
  "store_id" UUID NOT NULL REFERENCES "stores"("id"),
  "url" TEXT NOT NULL,
  "description" TEXT,
  -- Event types, or '*' for all of them.
  "events" TEXT[] NOT NULL,
  "enabled" BOOLEAN NOT NULL DEFAULT true,
  -- Why it is disabled: 'merchant' (an update) or 'failing' (a delivery ran out of attempts).
  "disabled_reason" TEXT CHECK ("disabled_reason" IN ('merchant', 'failing')),
  -- The signing secret (whsec_...): kept as is, because every delivery is signed with it.
  "secret" TEXT NOT NULL,
  -- After a rotation, the old secret signs too until previous_secret_expires_at.
  "previous_secret" TEXT,
  "previous_secret_expires_at" TIMESTAMPTZ(3),
  "secret_rotated_at" TIMESTAMPTZ(3),
  -- The first failed attempt since the last success, or null.
  "failing_since" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL,
  CHECK ("enabled" = ("disabled_reason" IS NULL))
);
CREATE INDEX "webhook_endpoints_store_idx" ON "webhook_endpoints"("store_id", "created_at");

CREATE TABLE "events" (
  "id" TEXT PRIMARY KEY DEFAULT ('evt_' || replace(gen_random_uuid()::text, '-', '')),
  -- Commit order within the service: the order of the events list and of each endpoint's deliveries.
  "seq" BIGSERIAL NOT NULL UNIQUE,
  "store_id" UUID NOT NULL REFERENCES "stores"("id"),
  "type" TEXT NOT NULL,
  "mode" TEXT NOT NULL CHECK ("mode" IN ('live', 'test')),
  -- Who made the change (as the audit log records it).
  "actor_kind" "actor_kind" NOT NULL,
  "actor_id" TEXT NOT NULL,
  -- json, not jsonb: kept as written, keys in the order the API answers them.
  "data" JSON NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "events_store_seq_idx" ON "events"("store_id", "seq" DESC);
CREATE INDEX "events_store_type_seq_idx" ON "events"("store_id", "type", "seq" DESC);

CREATE TABLE "webhook_deliveries" (
  "id" TEXT PRIMARY KEY DEFAULT ('del_' || replace(gen_random_uuid()::text, '-', '')),
  "seq" BIGSERIAL NOT NULL UNIQUE,
  "event_id" TEXT NOT NULL REFERENCES "events"("id"),
  "event_seq" BIGINT NOT NULL,
  "endpoint_id" TEXT NOT NULL REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE,
  "status" TEXT NOT NULL DEFAULT 'pending' CHECK ("status" IN ('pending', 'succeeded', 'failed')),
  "attempt_count" INTEGER NOT NULL DEFAULT 0,
  "next_attempt_at" TIMESTAMPTZ(3),
  -- While an attempt runs: until when this worker holds it (a crashed worker's lease runs out).
  "leased_until" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL,
  CHECK (("status" = 'pending') = ("next_attempt_at" IS NOT NULL))
);
-- What is due, per endpoint, in commit order.
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries"("endpoint_id", "event_seq") WHERE "status" = 'pending';
CREATE INDEX "webhook_deliveries_next_idx" ON "webhook_deliveries"("next_attempt_at") WHERE "status" = 'pending';
CREATE INDEX "webhook_deliveries_endpoint_seq_idx" ON "webhook_deliveries"("endpoint_id", "seq" DESC);
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries"("event_id");

CREATE TABLE "webhook_delivery_attempts" (
  "id" BIGSERIAL PRIMARY KEY,
  "delivery_id" TEXT NOT NULL REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE,
  "attempted_at" TIMESTAMPTZ(3) NOT NULL,
  "succeeded" BOOLEAN NOT NULL,
  "status_code" INTEGER,
  "duration_ms" INTEGER NOT NULL,
  "error" TEXT,
  "response_body" TEXT
);
CREATE INDEX "webhook_delivery_attempts_delivery_idx" ON "webhook_delivery_attempts"("delivery_id", "id" DESC);
