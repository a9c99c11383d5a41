-- Every instance keeps the callers of recently used API keys in memory (server/domain/api-key-cache.ts)
-- and empties that cache on this notification: a revoked key, or a store's changed terms, stop being
-- served from memory as soon as the change commits. Statement-level: one notification per statement
-- (PostgreSQL also folds identical notifications of one transaction into one).
CREATE FUNCTION notify_api_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('api_key_changes', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;

CREATE TRIGGER api_keys_notify_change
  AFTER UPDATE OR DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION notify_api_key_change();

CREATE TRIGGER stores_notify_change
  AFTER UPDATE OR DELETE OR TRUNCATE ON stores
  FOR EACH STATEMENT EXECUTE FUNCTION notify_api_key_change();
