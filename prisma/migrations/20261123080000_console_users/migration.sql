-- The merchant console's users and their sessions (docs/console.md). A user belongs to one store;
-- an email is one user across the service, so the login form needs nothing but email and password.
CREATE TYPE "merchant_user_role" AS ENUM ('owner', 'admin', 'viewer');

CREATE TABLE "merchant_users" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "store_id" UUID NOT NULL,
  -- Lower-cased and trimmed.
  "email" TEXT NOT NULL CHECK ("email" = lower(btrim("email")) AND "email" <> ''),
  "role" "merchant_user_role" NOT NULL,
  -- argon2id, in its PHC string; null until the user chose a password through the setup link.
  "password_hash" TEXT,
  "password_changed_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "disabled_at" TIMESTAMPTZ(3),
  CONSTRAINT "merchant_users_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "merchant_users_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "merchant_users_email_key" ON "merchant_users"("email");
CREATE INDEX "merchant_users_store_id_idx" ON "merchant_users"("store_id");

-- A one-time link to choose a password (24 hours). Only the SHA-256 of its token is kept.
CREATE TABLE "user_setup_tokens" (
  "token_hash" TEXT NOT NULL,
  "user_id" UUID NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "used_at" TIMESTAMPTZ(3),
  CONSTRAINT "user_setup_tokens_pkey" PRIMARY KEY ("token_hash"),
  CONSTRAINT "user_setup_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "merchant_users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "user_setup_tokens_user_id_idx" ON "user_setup_tokens"("user_id");

-- Console sessions: the cookie carries a random token; only its SHA-256 is kept.
CREATE TABLE "console_sessions" (
  "token_hash" TEXT NOT NULL,
  "user_id" UUID NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "last_seen_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("token_hash"),
  CONSTRAINT "console_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "merchant_users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "console_sessions_user_id_idx" ON "console_sessions"("user_id");
CREATE INDEX "console_sessions_expires_at_idx" ON "console_sessions"("expires_at");

-- When each key was last used, to the minute (written at most once a minute per key and instance).
ALTER TABLE "api_keys" ADD COLUMN "last_used_at" TIMESTAMPTZ(3);

-- Recording a key's use must not empty every instance's key cache: the change notification now
-- fires for the columns that change who a key is, not for last_used_at.
DROP TRIGGER "api_keys_notify_change" ON "api_keys";
CREATE TRIGGER "api_keys_notify_change"
  AFTER UPDATE OF "store_id", "mode", "scope", "key_hash", "last4", "woocommerce_webhook_secret", "revoked_at" OR DELETE OR TRUNCATE ON "api_keys"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_api_key_change();
