-- An idempotent replay answers the first answer's exact bytes. As jsonb the kept answer came back
-- with its keys reordered (jsonb keeps objects sorted by key length, then bytes), so it is kept as
-- the text that was sent. Answers kept before this change keep their content in jsonb's order.
ALTER TABLE "idempotency_keys" ALTER COLUMN "response_body" TYPE TEXT USING "response_body"::text;
