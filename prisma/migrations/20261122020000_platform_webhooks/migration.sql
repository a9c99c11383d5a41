-- Inbound platform messages: platforms and their stores, fulfilments, refunds, test-mode pushes;
-- the protection line of pushed orders; and the link from a reversal to its refund.

ALTER TYPE "pricing_source" ADD VALUE 'sender';

CREATE TABLE "platforms" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "slug" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "platforms_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "platforms_secret_check" CHECK (length("secret") >= 16)
);
CREATE UNIQUE INDEX "platforms_slug_key" ON "platforms"("slug");

CREATE TABLE "store_platforms" (
    "store_id" UUID NOT NULL,
    "platform_id" UUID NOT NULL,
    "connected_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "store_platforms_pkey" PRIMARY KEY ("store_id", "platform_id")
);
ALTER TABLE "store_platforms" ADD CONSTRAINT "store_platforms_store_id_fkey"
    FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "store_platforms" ADD CONSTRAINT "store_platforms_platform_id_fkey"
    FOREIGN KEY ("platform_id") REFERENCES "platforms"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "orders" ADD COLUMN "protection_sku" TEXT;
ALTER TABLE "orders" ADD COLUMN "protection_line_cents" BIGINT;

CREATE TABLE "fulfillments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "store_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "source_fulfillment_id" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "fulfillments_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "fulfillments_store_id_source_fulfillment_id_key" ON "fulfillments"("store_id", "source_fulfillment_id");
CREATE INDEX "fulfillments_order_id_idx" ON "fulfillments"("order_id");
ALTER TABLE "fulfillments" ADD CONSTRAINT "fulfillments_store_id_fkey"
    FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "fulfillments" ADD CONSTRAINT "fulfillments_order_id_fkey"
    FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "refunds" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "store_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "source_refund_id" TEXT NOT NULL,
    "amount_cents" BIGINT,
    "protection_refunded_cents" BIGINT NOT NULL,
    "reversed_cents" BIGINT NOT NULL,
    "note" TEXT,
    "refunded_at" TIMESTAMPTZ(3),
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "refunds_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "refunds_amounts_check" CHECK ("protection_refunded_cents" >= 0 AND "reversed_cents" >= 0 AND "reversed_cents" <= "protection_refunded_cents")
);
-- refund.id is the idempotency key: a redelivered refund cannot be stored, or reversed, twice.
CREATE UNIQUE INDEX "refunds_store_id_source_refund_id_key" ON "refunds"("store_id", "source_refund_id");
CREATE INDEX "refunds_order_id_idx" ON "refunds"("order_id");
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_store_id_fkey"
    FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_fkey"
    FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "premium_ledger_entries" ADD COLUMN "refund_id" UUID;
ALTER TABLE "premium_ledger_entries" ADD CONSTRAINT "premium_ledger_entries_refund_id_fkey"
    FOREIGN KEY ("refund_id") REFERENCES "refunds"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "test_mode_orders" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "store_id" UUID NOT NULL,
    "source_order_id" TEXT NOT NULL,
    "premium_cents" BIGINT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "test_mode_orders_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "test_mode_orders_store_id_source_order_id_key" ON "test_mode_orders"("store_id", "source_order_id");
ALTER TABLE "test_mode_orders" ADD CONSTRAINT "test_mode_orders_store_id_fkey"
    FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
