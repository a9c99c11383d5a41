-- The claim page finds an order however the shopper types its number (docs/shopper-claims.md):
-- "1002", "#1002" and " 10 02 " are one number, as are "ab-12" and "AB-12". The rule is
-- order_number_key: whitespace removed, then any leading '#', then lower case. Its twin in
-- TypeScript, orderNumberKey (server/domain/claims/find-shopper-order.ts), keys the lookup rate
-- limits; a test checks the two agree.
CREATE FUNCTION order_number_key(number TEXT) RETURNS TEXT
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT lower(ltrim(regexp_replace(number, '[ \t\n\v\f\r]+', '', 'g'), '#')) $$;

-- The lookup probes this index with the same expression (findOrderForShopper).
CREATE INDEX "orders_store_id_order_number_key_idx" ON "orders"("store_id", order_number_key("source_order_number"));
