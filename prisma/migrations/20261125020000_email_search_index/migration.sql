-- The console's search by a shopper's email reads one page, newest first: with the creation time and
-- id in the index, that page is read from it in order, however many orders the email has.
DROP INDEX "orders_customer_email_lookup_idx";
CREATE INDEX "orders_customer_email_lookup_idx" ON "orders"("customer_email_lookup", "store_id", "created_on" DESC, "id" DESC) WHERE "customer_email_lookup" IS NOT NULL;
