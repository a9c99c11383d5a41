-- Every instance also keeps the platforms that sign messages, and the stores connected to them, in
-- memory for the platform webhook (server/domain/api-key-cache.ts): a rotated secret, a removed
-- platform or a removed connection must stop being served from memory as soon as it commits, so
-- these tables notify the same channel as keys and stores. (A new platform or connection needs no
-- notification: nothing absent is cached.)
CREATE TRIGGER platforms_notify_change
  AFTER UPDATE OR DELETE OR TRUNCATE ON platforms
  FOR EACH STATEMENT EXECUTE FUNCTION notify_api_key_change();

CREATE TRIGGER store_platforms_notify_change
  AFTER UPDATE OR DELETE OR TRUNCATE ON store_platforms
  FOR EACH STATEMENT EXECUTE FUNCTION notify_api_key_change();
