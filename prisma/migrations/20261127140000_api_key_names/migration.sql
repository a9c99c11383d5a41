-- API keys get an optional name at creation ("Production server"), shown in the console's list, in
-- the audit and in claim histories. Existing keys keep null and are labelled as before. A name is
-- set once, at issue, and never updated, so the key-change trigger need not watch it.
ALTER TABLE "api_keys" ADD COLUMN "name" TEXT;
