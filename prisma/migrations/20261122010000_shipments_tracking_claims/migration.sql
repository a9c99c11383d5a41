-- Shipments with their carrier scans, and claims with their status history.

CREATE TYPE "delivery_status" AS ENUM ('Active', 'Delivered', 'Exception', 'Cancelled');
CREATE TYPE "claim_reason" AS ENUM ('lost', 'damaged', 'stolen', 'missing_items', 'wrong_address', 'other');
CREATE TYPE "claim_status" AS ENUM ('open', 'in_review', 'approved', 'denied', 'paid', 'closed');

CREATE TABLE "shipments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "store_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "tracking_number" TEXT NOT NULL,
    "courier" TEXT NOT NULL,
    "delivery_status" "delivery_status" NOT NULL DEFAULT 'Active',
    "tracking_provider" TEXT NOT NULL,
    "provider_ref" TEXT,
    "tracking_url" TEXT,
    "expected_delivery_date" DATE,
    "source_product_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "line_items" JSONB,
    "merchant_messages" JSONB NOT NULL DEFAULT '[]',
    "last_polled_at" TIMESTAMPTZ(3),
    "created_on" TIMESTAMPTZ(3) NOT NULL,
    "updated_on" TIMESTAMPTZ(3) NOT NULL,
    "cancelled_on" TIMESTAMPTZ(3),
    CONSTRAINT "shipments_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "shipments_tracking_number_check" CHECK ("tracking_number" ~ '^[A-Z0-9]+$'),
    CONSTRAINT "shipments_cancelled_check" CHECK (("delivery_status" = 'Cancelled') = ("cancelled_on" IS NOT NULL))
);
CREATE INDEX "shipments_order_id_idx" ON "shipments"("order_id");
CREATE INDEX "shipments_store_id_tracking_number_idx" ON "shipments"("store_id", "tracking_number");
CREATE INDEX "shipments_provider_ref_idx" ON "shipments"("provider_ref");
-- One active shipment per tracking number and store; a cancelled one frees the number.
CREATE UNIQUE INDEX "shipments_active_tracking_number_key" ON "shipments"("store_id", "tracking_number")
    WHERE "cancelled_on" IS NULL;
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_store_id_fkey"
    FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_fkey"
    FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "shipment_checkpoints" (
    "id" BIGSERIAL NOT NULL,
    "shipment_id" UUID NOT NULL,
    "status" "delivery_status" NOT NULL,
    "subtag" TEXT,
    "message" TEXT NOT NULL,
    "city" TEXT,
    "state" TEXT,
    "zip" TEXT,
    "country" TEXT,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "source" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "shipment_checkpoints_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "shipment_checkpoints_shipment_id_fingerprint_key" ON "shipment_checkpoints"("shipment_id", "fingerprint");
CREATE INDEX "shipment_checkpoints_shipment_id_occurred_at_idx" ON "shipment_checkpoints"("shipment_id", "occurred_at");
ALTER TABLE "shipment_checkpoints" ADD CONSTRAINT "shipment_checkpoints_shipment_id_fkey"
    FOREIGN KEY ("shipment_id") REFERENCES "shipments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "claims" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "store_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "shipment_id" UUID,
    "reason" "claim_reason" NOT NULL,
    "description" TEXT,
    "items" JSONB NOT NULL DEFAULT '[]',
    "status" "claim_status" NOT NULL DEFAULT 'open',
    "created_on" TIMESTAMPTZ(3) NOT NULL,
    "updated_on" TIMESTAMPTZ(3) NOT NULL,
    "resolved_on" TIMESTAMPTZ(3),
    CONSTRAINT "claims_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "claims_order_id_idx" ON "claims"("order_id");
CREATE INDEX "claims_shipment_id_idx" ON "claims"("shipment_id");
ALTER TABLE "claims" ADD CONSTRAINT "claims_store_id_fkey"
    FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "claims" ADD CONSTRAINT "claims_order_id_fkey"
    FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "claims" ADD CONSTRAINT "claims_shipment_id_fkey"
    FOREIGN KEY ("shipment_id") REFERENCES "shipments"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "claim_status_changes" (
    "id" BIGSERIAL NOT NULL,
    "claim_id" UUID NOT NULL,
    "from_status" "claim_status",
    "to_status" "claim_status" NOT NULL,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "claim_status_changes_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "claim_status_changes_claim_id_idx" ON "claim_status_changes"("claim_id");
ALTER TABLE "claim_status_changes" ADD CONSTRAINT "claim_status_changes_claim_id_fkey"
    FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
