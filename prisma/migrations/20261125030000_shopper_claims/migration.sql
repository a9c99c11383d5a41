-- Shoppers file and follow their own claims on the store's claim page.

-- A shopper is a fifth kind of actor: the one who found an order by its number and email. Its id is
-- the order's id (the shopper has no account).
ALTER TYPE "actor_kind" ADD VALUE IF NOT EXISTS 'shopper';

-- Where a claim was filed. Every claim before this one came through the API.
CREATE TYPE "claim_channel" AS ENUM ('api', 'shopper_page', 'cli');
ALTER TABLE "claims" ADD COLUMN "channel" "claim_channel" NOT NULL DEFAULT 'api';
ALTER TABLE "claims" ALTER COLUMN "channel" DROP DEFAULT;

-- One open claim per parcel: a double tap on the claim page, or the shopper and the store filing at
-- once, give one claim and a 409, never two. (Claims on the whole order have no shipment.)
CREATE UNIQUE INDEX "claims_one_open_per_shipment" ON "claims" ("shipment_id")
  WHERE "shipment_id" IS NOT NULL AND "status" IN ('open', 'in_review', 'approved');

-- Shoppers find their order by the number the store showed them (with their email).
CREATE INDEX "orders_store_id_source_order_number_idx" ON "orders"("store_id", "source_order_number");

-- The claim page's branding and contact, and the claim windows it applies.
ALTER TABLE "stores"
  ADD COLUMN "brand_accent_color" TEXT CONSTRAINT "stores_brand_accent_color_check" CHECK ("brand_accent_color" ~ '^#[0-9a-f]{6}$'),
  ADD COLUMN "support_email" TEXT,
  ADD COLUMN "support_url" TEXT,
  ADD COLUMN "claim_lost_after_days" INTEGER NOT NULL DEFAULT 7
    CONSTRAINT "stores_claim_lost_after_days_check" CHECK ("claim_lost_after_days" BETWEEN 1 AND 365),
  ADD COLUMN "claim_after_delivery_days" INTEGER NOT NULL DEFAULT 30
    CONSTRAINT "stores_claim_after_delivery_days_check" CHECK ("claim_after_delivery_days" BETWEEN 1 AND 365);

-- A store's logo, re-encoded as PNG when it was set (never the file as uploaded).
CREATE TABLE "store_logos" (
  "store_id" UUID NOT NULL,
  "content" BYTEA NOT NULL,
  "sha256" TEXT NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "store_logos_pkey" PRIMARY KEY ("store_id"),
  CONSTRAINT "store_logos_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE
);

-- Photos a shopper uploaded for a claim on an order: uploaded first (claim_id null), attached when
-- the claim is filed. Unattached ones are swept after a day. The image itself is kept by the photo
-- store (below by default; an S3-compatible one keeps it under the photo's id).
CREATE TABLE "claim_photos" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "store_id" UUID NOT NULL,
  "order_id" UUID NOT NULL,
  "claim_id" UUID,
  "width" INTEGER NOT NULL,
  "height" INTEGER NOT NULL,
  "byte_size" INTEGER NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "claim_photos_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "claim_photos_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id"),
  CONSTRAINT "claim_photos_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id"),
  CONSTRAINT "claim_photos_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id")
);
CREATE INDEX "claim_photos_order_id_idx" ON "claim_photos"("order_id");
CREATE INDEX "claim_photos_claim_id_idx" ON "claim_photos"("claim_id");
CREATE INDEX "claim_photos_unattached_idx" ON "claim_photos"("created_at") WHERE "claim_id" IS NULL;

-- The default photo store: the bytes in PostgreSQL, gone with their photo's row.
CREATE TABLE "claim_photo_objects" (
  "photo_id" UUID NOT NULL,
  "content" BYTEA NOT NULL,
  CONSTRAINT "claim_photo_objects_pkey" PRIMARY KEY ("photo_id"),
  CONSTRAINT "claim_photo_objects_photo_id_fkey" FOREIGN KEY ("photo_id") REFERENCES "claim_photos"("id") ON DELETE CASCADE
);

-- The key that signs shoppers' session cookies, shared by every instance.
INSERT INTO "server_secrets" ("name", "secret") VALUES ('shopper_session', gen_random_bytes(32));
