-- How long a store keeps its shoppers' personal data after an order's last activity (its last
-- shipment delivered or cancelled, its last claim resolved): then the daily retention job erases it.
ALTER TABLE "stores" ADD COLUMN "personal_data_retention_days" INTEGER NOT NULL DEFAULT 730
  CHECK ("personal_data_retention_days" BETWEEN 1 AND 36500);
