-- Which client a store's integration is: standard (the documented API, exactly) or route (the
-- store runs Route's own plugins against this service and needs their wire forms read).
CREATE TYPE "client_profile" AS ENUM ('standard', 'route');
ALTER TABLE "stores" ADD COLUMN "client_profile" "client_profile" NOT NULL DEFAULT 'standard';

-- A WooCommerce webhook secret the store declares: Route's plugin keeps the secret it derived from
-- the Route token it had before, so a store that switches signs with that one.
ALTER TABLE "stores" ADD COLUMN "woocommerce_webhook_secret" TEXT;

-- The secret Route's WooCommerce plugin derives from a key: hex SHA-256 of "<store id>-<key>".
-- A one-way hash of the key (the key itself is still never stored) that WooCommerce signs with.
-- Null for keys issued before this column existed, until the key is next used.
ALTER TABLE "api_keys" ADD COLUMN "woocommerce_webhook_secret" TEXT;
