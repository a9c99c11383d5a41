-- Idempotency-Key (Stripe's semantics) on the merchant API's POST and PATCH routes, live keys only.
-- One row per store and key: the hash of the request that first used it, whether it is still
-- running, and once it succeeded, the answer to replay. The primary key is what makes two
-- requests sharing a key run once, across instances.
CREATE TYPE "idempotency_state" AS ENUM ('running', 'done');
CREATE TABLE "idempotency_keys" (
  "store_id" UUID NOT NULL REFERENCES "stores"("id"),
  "key" TEXT NOT NULL,
  -- Hex SHA-256 of the method, the path with its query, and the body's exact bytes.
  "request_hash" TEXT NOT NULL,
  "state" "idempotency_state" NOT NULL,
  "started_at" TIMESTAMPTZ(3) NOT NULL,
  -- 24 hours after the first request: the key can then be used again, for anything.
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "response_status" INTEGER,
  "response_body" JSONB,
  PRIMARY KEY ("store_id", "key"),
  CHECK (("state" = 'done') = ("response_status" IS NOT NULL))
);
-- The sweep of expired keys.
CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys"("expires_at");
