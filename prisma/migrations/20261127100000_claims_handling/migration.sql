-- Claims handling (docs/claims.md): each claim gets a reference a person can read aloud, the value
-- of what it claims, whether it was filed inside the store's window, and, once decided, what the
-- merchant resolved and paid. A status change can record the rule that made it, the rule set's
-- version and the evidence it read. A store's claim rules are kept as numbered versions.

ALTER TABLE "claims"
  ADD COLUMN "reference" TEXT,
  ADD COLUMN "amount_claimed_cents" BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN "filed_within_window" BOOLEAN,
  ADD COLUMN "resolution_type" TEXT,
  ADD COLUMN "resolution_amount_cents" BIGINT,
  ADD COLUMN "resolution_note" TEXT,
  ADD COLUMN "payout_amount_cents" BIGINT,
  ADD COLUMN "payout_paid_on" TIMESTAMPTZ(3),
  ADD COLUMN "payout_reference" TEXT;

-- Claims filed before: a reference from their id (hexadecimal, so without the letters a new one
-- may use), and the value of what they name, as new claims compute it.
UPDATE "claims" SET "reference" = 'CLM-' || upper(substr(md5("id"::text), 1, 6));
UPDATE "claims" c SET "amount_claimed_cents" = COALESCE((
  SELECT sum(l."price_cents" * CASE
           WHEN jsonb_array_length(c."items") = 0 THEN l."quantity"
           ELSE LEAST(l."quantity", (SELECT sum((i ->> 'quantity')::bigint) FROM jsonb_array_elements(c."items") i WHERE i ->> 'source_id' = l."source_id"))
         END)
    FROM "order_line_items" l
   WHERE l."order_id" = c."order_id"
     AND CASE WHEN jsonb_array_length(c."items") = 0 THEN l."is_insured" IS NOT FALSE
              ELSE EXISTS (SELECT 1 FROM jsonb_array_elements(c."items") i WHERE i ->> 'source_id' = l."source_id") END
), 0);

ALTER TABLE "claims"
  ALTER COLUMN "reference" SET NOT NULL,
  ADD CONSTRAINT "claims_amount_claimed_not_negative" CHECK ("amount_claimed_cents" >= 0),
  ADD CONSTRAINT "claims_resolution_type_known" CHECK ("resolution_type" IN ('refund', 'reorder', 'store_credit')),
  ADD CONSTRAINT "claims_resolution_whole" CHECK (("resolution_type" IS NULL) = ("resolution_amount_cents" IS NULL)),
  ADD CONSTRAINT "claims_resolution_not_negative" CHECK ("resolution_amount_cents" >= 0),
  ADD CONSTRAINT "claims_payout_whole" CHECK (("payout_amount_cents" IS NULL) = ("payout_paid_on" IS NULL)),
  ADD CONSTRAINT "claims_payout_not_negative" CHECK ("payout_amount_cents" >= 0),
  ADD CONSTRAINT "claims_payout_within_resolution" CHECK ("payout_amount_cents" <= "resolution_amount_cents");

-- Support searches by reference; two claims of a store never share one.
CREATE UNIQUE INDEX "claims_store_reference_key" ON "claims" ("store_id", "reference");
-- The month's claims for the billing statement.
CREATE INDEX "claims_store_created_on_idx" ON "claims" ("store_id", "created_on");
CREATE INDEX "claims_store_payout_paid_on_idx" ON "claims" ("store_id", "payout_paid_on") WHERE "payout_paid_on" IS NOT NULL;

ALTER TABLE "claim_status_changes"
  ADD COLUMN "rule_name" TEXT,
  ADD COLUMN "rule_version" INTEGER,
  ADD COLUMN "evidence" JSONB,
  ADD CONSTRAINT "claim_status_changes_rule_whole" CHECK (("rule_name" IS NULL) = ("rule_version" IS NULL));

CREATE TABLE "claim_rule_sets" (
  "store_id" UUID NOT NULL REFERENCES "stores" ("id"),
  "version" INTEGER NOT NULL CHECK ("version" >= 1),
  "rules" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "actor_kind" "actor_kind" NOT NULL,
  "actor_id" TEXT NOT NULL,
  PRIMARY KEY ("store_id", "version")
);
