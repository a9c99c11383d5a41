-- Growth that is dropped, not deleted (docs/scaling.md, section 3): the events with their
-- deliveries and attempts, and the request log, are partitioned by day with PostgreSQL's own
-- declarative partitioning. Retention drops a whole day once all of it is past, instead of
-- DELETE batches that leave dead rows for VACUUM and cost more as the tables grow.
--
-- - events by created_at; webhook_deliveries and webhook_delivery_attempts by their event's
--   created_at (event_created_at), so an event, its deliveries and their attempts live in the same
--   day and go together;
-- - request_log by at.
-- Each has a DEFAULT partition for a row outside the days created ahead (a clock far off); the
-- sweep deletes expired rows there in batches, as before.
--
-- A primary key of a partitioned table must include the partition key, so each becomes (id, day
-- column); ids stay unique by construction (random or from a sequence). The seq columns keep
-- their sequences without a unique index. No foreign key joins the three event tables: detaching a
-- referenced partition would scan the referencing table for rows pointing into it, on every drop.
-- The writers keep them consistent: an event's deliveries are written in the event's statement (or
-- by a resend with the event's own values), attempts with their delivery's, and an endpoint's
-- deletion removes its attempts before its deliveries cascade.

-- Partition names: <table>_pYYYYMMDD, one UTC day each.
CREATE FUNCTION day_partition_name(p_parent text, p_day date) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT p_parent || '_p' || to_char(p_day, 'YYYYMMDD')
$$;

-- Creates the day partitions of p_parent for [p_from, p_from + p_days) that do not exist yet.
-- A day whose rows already sit in the default partition is skipped: they stay there and are swept.
-- Returns how many were created.
CREATE FUNCTION create_day_partitions(p_parent text, p_column text, p_from date, p_days integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  created integer := 0;
  day date;
  name text;
  stray boolean;
BEGIN
  FOR i IN 0 .. p_days - 1 LOOP
    day := p_from + i;
    name := day_partition_name(p_parent, day);
    CONTINUE WHEN to_regclass(name) IS NOT NULL;
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE %I >= %L::timestamptz AND %I < %L::timestamptz)',
      p_parent || '_default', p_column, day::text || ' 00:00:00+00', p_column, (day + 1)::text || ' 00:00:00+00') INTO stray;
    CONTINUE WHEN stray;
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', name, p_parent,
      day::text || ' 00:00:00+00', (day + 1)::text || ' 00:00:00+00');
    created := created + 1;
  END LOOP;
  RETURN created;
END $$;

-- Drops the day partitions of p_parent that end at or before p_cutoff. Dropping one takes a brief
-- exclusive lock on the parent: it waits at most 2 s for the writers in flight (lock_timeout) rather
-- than queue the next ones behind it, and a sweep that gave up tries again an hour later.
-- Returns what it dropped and how many rows each held (a count reads the day once; a DELETE would
-- have written every row).
CREATE FUNCTION drop_day_partitions_before(p_parent text, p_cutoff timestamptz) RETURNS TABLE (dropped_partition text, dropped_rows bigint)
LANGUAGE plpgsql AS $$
DECLARE
  part record;
BEGIN
  PERFORM set_config('lock_timeout', '2s', true);
  FOR part IN
    SELECT c.relname, to_date(substring(c.relname FROM '_p(\d{8})$'), 'YYYYMMDD') AS day
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = p_parent::regclass AND c.relname ~ ('^' || p_parent || '_p\d{8}$')
     ORDER BY 2
  LOOP
    EXIT WHEN (part.day + 1)::timestamp AT TIME ZONE 'UTC' > p_cutoff;
    EXECUTE format('SELECT count(*) FROM %I', part.relname) INTO dropped_rows;
    EXECUTE format('DROP TABLE %I', part.relname);
    dropped_partition := part.relname;
    RETURN NEXT;
  END LOOP;
END $$;

-- The old tables keep their data until it is copied.
ALTER TABLE webhook_delivery_attempts RENAME TO webhook_delivery_attempts_unpartitioned;
ALTER TABLE webhook_deliveries RENAME TO webhook_deliveries_unpartitioned;
ALTER TABLE events RENAME TO events_unpartitioned;
ALTER TABLE request_log RENAME TO request_log_unpartitioned;
ALTER INDEX events_pkey RENAME TO events_unpartitioned_pkey;
ALTER INDEX events_seq_key RENAME TO events_unpartitioned_seq_key;
ALTER INDEX events_store_seq_idx RENAME TO events_unpartitioned_store_seq_idx;
ALTER INDEX events_store_type_seq_idx RENAME TO events_unpartitioned_store_type_seq_idx;
ALTER INDEX webhook_deliveries_pkey RENAME TO webhook_deliveries_unpartitioned_pkey;
ALTER INDEX webhook_deliveries_seq_key RENAME TO webhook_deliveries_unpartitioned_seq_key;
ALTER INDEX webhook_deliveries_due_idx RENAME TO webhook_deliveries_unpartitioned_due_idx;
ALTER INDEX webhook_deliveries_next_idx RENAME TO webhook_deliveries_unpartitioned_next_idx;
ALTER INDEX webhook_deliveries_endpoint_seq_idx RENAME TO webhook_deliveries_unpartitioned_endpoint_seq_idx;
ALTER INDEX webhook_deliveries_event_idx RENAME TO webhook_deliveries_unpartitioned_event_idx;
ALTER INDEX webhook_deliveries_pending_object_idx RENAME TO webhook_deliveries_unpartitioned_pending_object_idx;
ALTER INDEX webhook_delivery_attempts_pkey RENAME TO webhook_delivery_attempts_unpartitioned_pkey;
ALTER INDEX webhook_delivery_attempts_delivery_idx RENAME TO webhook_delivery_attempts_unpartitioned_delivery_idx;
ALTER INDEX request_log_pkey RENAME TO request_log_unpartitioned_pkey;
ALTER INDEX request_log_store_id_id_idx RENAME TO request_log_unpartitioned_store_id_id_idx;
ALTER INDEX request_log_at_idx RENAME TO request_log_unpartitioned_at_idx;

CREATE TABLE events (
  id text NOT NULL DEFAULT ('evt_' || replace(gen_random_uuid()::text, '-', '')),
  -- Commit order within the service: the order of the events list and of each endpoint's deliveries.
  seq bigint NOT NULL,
  store_id uuid NOT NULL REFERENCES stores(id),
  type text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  actor_kind actor_kind NOT NULL,
  actor_id text NOT NULL,
  -- json, not jsonb: kept as written, keys in the order the API answers them.
  data json NOT NULL,
  created_at timestamptz(3) NOT NULL,
  object_key text NOT NULL GENERATED ALWAYS AS (
    CASE split_part(type, '.', 1) WHEN 'shipment' THEN 'shipment:' WHEN 'claim' THEN 'claim:' ELSE 'order:' END
    || coalesce(data ->> 'id', id)
  ) STORED,
  PRIMARY KEY (id, created_at)
) PARTITION BY RANGE (created_at);
ALTER SEQUENCE events_seq_seq OWNED BY events.seq;
ALTER TABLE events ALTER COLUMN seq SET DEFAULT nextval('events_seq_seq');
CREATE INDEX events_store_seq_idx ON events (store_id, seq DESC);
CREATE INDEX events_store_type_seq_idx ON events (store_id, type, seq DESC);
CREATE TABLE events_default PARTITION OF events DEFAULT;

CREATE TABLE webhook_deliveries (
  id text NOT NULL DEFAULT ('del_' || replace(gen_random_uuid()::text, '-', '')),
  seq bigint NOT NULL,
  event_id text NOT NULL,
  -- The event's created_at: the day this delivery and its attempts are kept with.
  event_created_at timestamptz(3) NOT NULL,
  event_seq bigint NOT NULL,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  object_key text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempt_count integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz(3),
  leased_until timestamptz(3),
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL)),
  PRIMARY KEY (id, event_created_at)
) PARTITION BY RANGE (event_created_at);
ALTER SEQUENCE webhook_deliveries_seq_seq OWNED BY webhook_deliveries.seq;
ALTER TABLE webhook_deliveries ALTER COLUMN seq SET DEFAULT nextval('webhook_deliveries_seq_seq');
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (endpoint_id, event_seq) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_next_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint_seq_idx ON webhook_deliveries (endpoint_id, seq DESC);
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);
CREATE INDEX webhook_deliveries_pending_object_idx ON webhook_deliveries (endpoint_id, object_key, event_seq) WHERE status = 'pending';
CREATE TABLE webhook_deliveries_default PARTITION OF webhook_deliveries DEFAULT;

CREATE TABLE webhook_delivery_attempts (
  id bigint NOT NULL,
  delivery_id text NOT NULL,
  event_created_at timestamptz(3) NOT NULL,
  attempted_at timestamptz(3) NOT NULL,
  succeeded boolean NOT NULL,
  status_code integer,
  duration_ms integer NOT NULL,
  error text,
  response_body text,
  PRIMARY KEY (id, event_created_at)
) PARTITION BY RANGE (event_created_at);
ALTER SEQUENCE webhook_delivery_attempts_id_seq OWNED BY webhook_delivery_attempts.id;
ALTER TABLE webhook_delivery_attempts ALTER COLUMN id SET DEFAULT nextval('webhook_delivery_attempts_id_seq');
CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts (delivery_id, id DESC);
CREATE TABLE webhook_delivery_attempts_default PARTITION OF webhook_delivery_attempts DEFAULT;

CREATE TABLE request_log (
  id bigint NOT NULL,
  store_id uuid NOT NULL REFERENCES stores(id) ON DELETE CASCADE ON UPDATE CASCADE,
  at timestamptz(3) NOT NULL,
  mode key_mode NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  status integer NOT NULL,
  request_id text NOT NULL,
  duration_ms integer NOT NULL,
  PRIMARY KEY (id, at)
) PARTITION BY RANGE (at);
ALTER SEQUENCE request_log_id_seq OWNED BY request_log.id;
ALTER TABLE request_log ALTER COLUMN id SET DEFAULT nextval('request_log_id_seq');
CREATE INDEX request_log_store_id_id_idx ON request_log (store_id, id);
CREATE INDEX request_log_at_idx ON request_log (at);
CREATE TABLE request_log_default PARTITION OF request_log DEFAULT;

-- Days from the oldest row kept to a week ahead; the hourly sweep keeps creating a week ahead.
SELECT create_day_partitions('events', 'created_at', least((SELECT min(created_at) FROM events_unpartitioned), now())::date,
  (now()::date + 8 - least((SELECT min(created_at) FROM events_unpartitioned), now())::date));
SELECT create_day_partitions('webhook_deliveries', 'event_created_at', least((SELECT min(created_at) FROM events_unpartitioned), now())::date,
  (now()::date + 8 - least((SELECT min(created_at) FROM events_unpartitioned), now())::date));
SELECT create_day_partitions('webhook_delivery_attempts', 'event_created_at', least((SELECT min(created_at) FROM events_unpartitioned), now())::date,
  (now()::date + 8 - least((SELECT min(created_at) FROM events_unpartitioned), now())::date));
SELECT create_day_partitions('request_log', 'at', least((SELECT min(at) FROM request_log_unpartitioned), now())::date,
  (now()::date + 8 - least((SELECT min(at) FROM request_log_unpartitioned), now())::date));

INSERT INTO events (id, seq, store_id, type, mode, actor_kind, actor_id, data, created_at)
  SELECT id, seq, store_id, type, mode, actor_kind, actor_id, data, created_at FROM events_unpartitioned;
INSERT INTO webhook_deliveries (id, seq, event_id, event_created_at, event_seq, endpoint_id, object_key, status, attempt_count,
    next_attempt_at, leased_until, created_at, updated_at)
  SELECT d.id, d.seq, d.event_id, e.created_at, d.event_seq, d.endpoint_id, d.object_key, d.status, d.attempt_count,
         d.next_attempt_at, d.leased_until, d.created_at, d.updated_at
    FROM webhook_deliveries_unpartitioned d JOIN events_unpartitioned e ON e.id = d.event_id;
INSERT INTO webhook_delivery_attempts (id, delivery_id, event_created_at, attempted_at, succeeded, status_code, duration_ms, error, response_body)
  SELECT a.id, a.delivery_id, e.created_at, a.attempted_at, a.succeeded, a.status_code, a.duration_ms, a.error, a.response_body
    FROM webhook_delivery_attempts_unpartitioned a
    JOIN webhook_deliveries_unpartitioned d ON d.id = a.delivery_id
    JOIN events_unpartitioned e ON e.id = d.event_id;
INSERT INTO request_log (id, store_id, at, mode, method, path, status, request_id, duration_ms)
  SELECT id, store_id, at, mode, method, path, status, request_id, duration_ms FROM request_log_unpartitioned;

DROP TABLE webhook_delivery_attempts_unpartitioned;
DROP TABLE webhook_deliveries_unpartitioned;
DROP TABLE events_unpartitioned;
DROP TABLE request_log_unpartitioned;
