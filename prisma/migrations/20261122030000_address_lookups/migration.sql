-- The 24-hour dedupe of address lookups (SPEC.md §8): one row per verifier and standardised address.

CREATE TABLE "address_lookups" (
    "key_hash" TEXT NOT NULL,
    "verifier" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "address_lookups_pkey" PRIMARY KEY ("key_hash"),
    CONSTRAINT "address_lookups_expiry_check" CHECK ("expires_at" > "created_at")
);
CREATE INDEX "address_lookups_expires_at_idx" ON "address_lookups"("expires_at");
