-- Foundation: stores, API keys, quotes, orders with line items, and the append-only premium ledger.

CREATE TYPE "quote_origin" AS ENUM ('backend', 'browser');
CREATE TYPE "key_mode" AS ENUM ('live', 'test');
CREATE TYPE "key_scope" AS ENUM ('store', 'account');
CREATE TYPE "order_status" AS ENUM ('created', 'cancelled');
CREATE TYPE "pricing_source" AS ENUM ('quote', 'rate', 'none');
CREATE TYPE "ledger_reason" AS ENUM ('booking', 'repricing', 'reversal');

CREATE TABLE "stores" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "rate_bps" INTEGER NOT NULL,
    "min_premium_cents" BIGINT NOT NULL,
    "max_covered_cents" BIGINT,
    "protection_skus" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "quote_origin" "quote_origin" NOT NULL DEFAULT 'backend',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "stores_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "stores_rate_bps_check" CHECK ("rate_bps" BETWEEN 0 AND 10000),
    CONSTRAINT "stores_min_premium_check" CHECK ("min_premium_cents" >= 0),
    CONSTRAINT "stores_max_covered_check" CHECK ("max_covered_cents" IS NULL OR "max_covered_cents" >= 0)
);
CREATE UNIQUE INDEX "stores_slug_key" ON "stores"("slug");

CREATE TABLE "api_keys" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "store_id" UUID NOT NULL,
    "mode" "key_mode" NOT NULL,
    "scope" "key_scope" NOT NULL DEFAULT 'store',
    "key_hash" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "api_keys_key_hash_check" CHECK ("key_hash" ~ '^[0-9a-f]{64}$')
);
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");
CREATE INDEX "api_keys_store_id_idx" ON "api_keys"("store_id");
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_store_id_fkey"
    FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "quotes" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "store_id" UUID NOT NULL,
    "covered_cents" BIGINT NOT NULL,
    "premium_cents" BIGINT NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "cart_ref" TEXT,
    "cart_items" JSONB,
    "rate_bps" INTEGER NOT NULL,
    "min_premium_cents" BIGINT NOT NULL,
    "max_covered_cents" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "quotes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "quotes_amounts_check" CHECK ("covered_cents" >= 0 AND "premium_cents" >= 0),
    CONSTRAINT "quotes_expiry_check" CHECK ("expires_at" > "created_at")
);
CREATE INDEX "quotes_store_id_created_at_idx" ON "quotes"("store_id", "created_at");
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_store_id_fkey"
    FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Service order numbers come from one sequence so that every instance hands out unique ones.
CREATE SEQUENCE "order_number_seq" START WITH 100001;

CREATE TABLE "orders" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "store_id" UUID NOT NULL,
    "order_number" TEXT NOT NULL DEFAULT ('OP-'::text || nextval('order_number_seq'::regclass)),
    "source_order_id" TEXT NOT NULL,
    "source_order_number" TEXT NOT NULL,
    "status" "order_status" NOT NULL DEFAULT 'created',
    "insurance_selected" BOOLEAN NOT NULL,
    "quote_id" UUID,
    "pricing_source" "pricing_source" NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "subtotal_cents" BIGINT NOT NULL,
    "amount_covered_cents" BIGINT NOT NULL,
    "order_total_cents" BIGINT,
    "shipping_total_cents" BIGINT,
    "discounts_total_cents" BIGINT,
    "taxes_cents" BIGINT,
    "rate_bps" INTEGER NOT NULL,
    "min_premium_cents" BIGINT NOT NULL,
    "max_covered_cents" BIGINT,
    "customer_first_name" TEXT,
    "customer_last_name" TEXT,
    "customer_email" TEXT,
    "customer_phone" TEXT,
    "shipping_address" JSONB,
    "billing_address" JSONB,
    "platform_id" TEXT NOT NULL DEFAULT 'api',
    "source_created_on" TIMESTAMPTZ(3) NOT NULL,
    "created_on" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_on" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "cancelled_on" TIMESTAMPTZ(3),
    CONSTRAINT "orders_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "orders_amounts_check" CHECK ("subtotal_cents" >= 0 AND "amount_covered_cents" >= 0),
    CONSTRAINT "orders_cancelled_check" CHECK (("status" = 'cancelled') = ("cancelled_on" IS NOT NULL))
);
ALTER SEQUENCE "order_number_seq" OWNED BY "orders"."order_number";
CREATE UNIQUE INDEX "orders_order_number_key" ON "orders"("order_number");
-- The database, not the application, guarantees one order per source_order_id per store.
CREATE UNIQUE INDEX "orders_store_id_source_order_id_key" ON "orders"("store_id", "source_order_id");
CREATE INDEX "orders_store_id_source_created_on_idx" ON "orders"("store_id", "source_created_on");
ALTER TABLE "orders" ADD CONSTRAINT "orders_store_id_fkey"
    FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "orders" ADD CONSTRAINT "orders_quote_id_fkey"
    FOREIGN KEY ("quote_id") REFERENCES "quotes"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "order_line_items" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "order_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "source_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "price_cents" BIGINT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "source_product_id" TEXT,
    "sku" TEXT,
    "is_insured" BOOLEAN,
    "image_url" TEXT,
    CONSTRAINT "order_line_items_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "order_line_items_values_check" CHECK ("price_cents" >= 0 AND "quantity" > 0)
);
CREATE UNIQUE INDEX "order_line_items_order_id_source_id_key" ON "order_line_items"("order_id", "source_id");
CREATE UNIQUE INDEX "order_line_items_order_id_position_key" ON "order_line_items"("order_id", "position");
ALTER TABLE "order_line_items" ADD CONSTRAINT "order_line_items_order_id_fkey"
    FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "premium_ledger_entries" (
    "id" BIGSERIAL NOT NULL,
    "store_id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "amount_cents" BIGINT NOT NULL,
    "reason" "ledger_reason" NOT NULL,
    "effective_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "quote_id" UUID,
    "note" TEXT,
    CONSTRAINT "premium_ledger_entries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "premium_ledger_entries_nonzero_check" CHECK ("amount_cents" <> 0)
);
CREATE INDEX "premium_ledger_entries_order_id_idx" ON "premium_ledger_entries"("order_id");
CREATE INDEX "premium_ledger_entries_store_id_effective_at_idx" ON "premium_ledger_entries"("store_id", "effective_at");
ALTER TABLE "premium_ledger_entries" ADD CONSTRAINT "premium_ledger_entries_store_id_fkey"
    FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "premium_ledger_entries" ADD CONSTRAINT "premium_ledger_entries_order_id_fkey"
    FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The ledger is history: corrections are new entries, never edits.
CREATE FUNCTION "premium_ledger_is_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'premium_ledger_entries is append-only (% refused)', TG_OP;
END;
$$;
CREATE TRIGGER "premium_ledger_entries_append_only"
    BEFORE UPDATE OR DELETE ON "premium_ledger_entries"
    FOR EACH ROW EXECUTE FUNCTION "premium_ledger_is_append_only"();
