-- Finding a shopper's orders by email without a scan and without an email in any index: a keyed
-- hash (HMAC-SHA256) of the normalised email, kept next to the order and indexed per store. The key
-- is made here, once, from PostgreSQL's own random source, so every instance shares it; the hash
-- is computed in the database, so no write path (API, platform messages, Route's plugins) can
-- forget it, and an erasure that empties the email empties its hash too.
CREATE EXTENSION IF NOT EXISTS pgcrypto;

CREATE TABLE "server_secrets" (
  "name" TEXT NOT NULL,
  "secret" BYTEA NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "server_secrets_pkey" PRIMARY KEY ("name")
);
INSERT INTO "server_secrets" ("name", "secret") VALUES ('email_lookup', gen_random_bytes(32));

-- Normalised: NFKC, surrounding spaces trimmed, lower case (mailboxes are case-insensitive in practice).
CREATE FUNCTION email_lookup_hash(email TEXT) RETURNS BYTEA
  LANGUAGE sql STABLE STRICT PARALLEL SAFE
  AS $$ SELECT hmac(convert_to(lower(btrim(normalize(email, NFKC))), 'UTF8'), (SELECT "secret" FROM "server_secrets" WHERE "name" = 'email_lookup'), 'sha256') $$;

ALTER TABLE "orders" ADD COLUMN "customer_email_lookup" BYTEA;

CREATE FUNCTION orders_email_lookup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.customer_email_lookup := email_lookup_hash(NEW.customer_email);
  RETURN NEW;
END;
$$;
CREATE TRIGGER "orders_email_lookup" BEFORE INSERT OR UPDATE OF "customer_email", "customer_email_lookup" ON "orders"
  FOR EACH ROW EXECUTE FUNCTION orders_email_lookup();

UPDATE "orders" SET "customer_email_lookup" = email_lookup_hash("customer_email") WHERE "customer_email" IS NOT NULL;
-- The hash first: it all but names one shopper, so the probe reads a handful of entries.
CREATE INDEX "orders_customer_email_lookup_idx" ON "orders"("customer_email_lookup", "store_id") WHERE "customer_email_lookup" IS NOT NULL;

-- Every privacy request a store received (README, "Personal data"): from its API key, from its
-- platform (with the platform's request id, which makes a redelivery a duplicate), or from an
-- operator. Holds no personal data itself: the email a request named is not kept.
CREATE TYPE "privacy_request_kind" AS ENUM ('customer_redact', 'customer_data_request', 'store_redact');
CREATE TYPE "privacy_request_status" AS ENUM ('pending', 'completed', 'cancelled');

CREATE TABLE "privacy_requests" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "store_id" UUID NOT NULL,
  "kind" "privacy_request_kind" NOT NULL,
  "status" "privacy_request_status" NOT NULL,
  "actor_kind" "actor_kind" NOT NULL,
  "actor_id" TEXT NOT NULL,
  -- The platform's own id for the request: unique per store and platform.
  "platform_id" UUID,
  "source_request_id" TEXT,
  "received_at" TIMESTAMPTZ(3) NOT NULL,
  -- When the erasure job takes it up: a store erasure 48 hours after it was asked for (cancellable
  -- until then), a shopper's erasure whose orders had open claims at each run until they are erased.
  "due_at" TIMESTAMPTZ(3),
  "completed_at" TIMESTAMPTZ(3),
  "cancelled_at" TIMESTAMPTZ(3),
  "orders_matched" INTEGER NOT NULL DEFAULT 0,
  "orders_erased" INTEGER NOT NULL DEFAULT 0,
  -- Orders left for now because a claim on them is open.
  "orders_withheld" INTEGER NOT NULL DEFAULT 0,
  -- A shopper's erasure remembers which orders it still owes (ids only, no personal data).
  "withheld_source_order_ids" TEXT[] NOT NULL DEFAULT '{}',
  CONSTRAINT "privacy_requests_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "privacy_requests_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "privacy_requests_platform_id_fkey" FOREIGN KEY ("platform_id") REFERENCES "platforms"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "privacy_requests_source_request" CHECK (("platform_id" IS NULL) = ("source_request_id" IS NULL)),
  CONSTRAINT "privacy_requests_due" CHECK ("kind" <> 'store_redact' OR "due_at" IS NOT NULL),
  CONSTRAINT "privacy_requests_counts" CHECK ("orders_matched" >= 0 AND "orders_erased" >= 0 AND "orders_withheld" >= 0)
);
CREATE UNIQUE INDEX "privacy_requests_source_request_key" ON "privacy_requests"("store_id", "platform_id", "kind", "source_request_id");
CREATE INDEX "privacy_requests_store_id_received_at_idx" ON "privacy_requests"("store_id", "received_at");
-- At most one store erasure waiting per store; the job finds the due ones by this index.
CREATE UNIQUE INDEX "privacy_requests_one_pending_store_redact" ON "privacy_requests"("store_id") WHERE "kind" = 'store_redact' AND "status" = 'pending';
CREATE INDEX "privacy_requests_due_idx" ON "privacy_requests"("due_at") WHERE "status" = 'pending';
