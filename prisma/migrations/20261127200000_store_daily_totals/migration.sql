-- Per store and UTC day, what the overview, the billing statements and their claims section sum:
-- premium booked, re-pricings, credits (reversals), orders placed and protected, claims filed,
-- approved, denied and paid, and the amounts paid. Kept by triggers in the same transaction as the
-- row that moves them, so every writer (API, console, platform messages, CLI) keeps them and a
-- rolled-back change leaves no trace.
--
-- A busy store would make one row per store and day a hot spot: every order of the day waiting on
-- the row lock of the one before until it commits. Each writer adds into one of 16 slot rows chosen
-- by its database connection (pg_backend_pid() % 16), so concurrent transactions rarely share a row;
-- readers sum the slots.
CREATE TABLE store_daily_totals (
  store_id uuid NOT NULL REFERENCES stores(id),
  day date NOT NULL,
  slot integer NOT NULL,
  premium_count integer NOT NULL DEFAULT 0,
  premium_cents bigint NOT NULL DEFAULT 0,
  repricing_count integer NOT NULL DEFAULT 0,
  repricing_cents bigint NOT NULL DEFAULT 0,
  reversal_count integer NOT NULL DEFAULT 0,
  -- Signed as in the ledger: negative.
  reversal_cents bigint NOT NULL DEFAULT 0,
  order_count integer NOT NULL DEFAULT 0,
  protected_order_count integer NOT NULL DEFAULT 0,
  claims_filed integer NOT NULL DEFAULT 0,
  claims_approved integer NOT NULL DEFAULT 0,
  claims_denied integer NOT NULL DEFAULT 0,
  claims_paid integer NOT NULL DEFAULT 0,
  claims_paid_cents bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (store_id, day, slot)
);

-- The same totals computed from the rows themselves: the definition the rollup must equal. The
-- rebuild below fills the table from it, and the check (server/domain/billing) compares the two.
CREATE VIEW store_daily_totals_from_sources AS
SELECT store_id, day,
       sum(premium_count)::int AS premium_count, sum(premium_cents)::bigint AS premium_cents,
       sum(repricing_count)::int AS repricing_count, sum(repricing_cents)::bigint AS repricing_cents,
       sum(reversal_count)::int AS reversal_count, sum(reversal_cents)::bigint AS reversal_cents,
       sum(order_count)::int AS order_count, sum(protected_order_count)::int AS protected_order_count,
       sum(claims_filed)::int AS claims_filed, sum(claims_approved)::int AS claims_approved,
       sum(claims_denied)::int AS claims_denied, sum(claims_paid)::int AS claims_paid,
       sum(claims_paid_cents)::bigint AS claims_paid_cents
  FROM (
    SELECT e.store_id, (e.effective_at AT TIME ZONE 'UTC')::date AS day,
           (e.reason = 'booking')::int AS premium_count, CASE WHEN e.reason = 'booking' THEN e.amount_cents ELSE 0 END AS premium_cents,
           (e.reason = 'repricing')::int AS repricing_count, CASE WHEN e.reason = 'repricing' THEN e.amount_cents ELSE 0 END AS repricing_cents,
           (e.reason = 'reversal')::int AS reversal_count, CASE WHEN e.reason = 'reversal' THEN e.amount_cents ELSE 0 END AS reversal_cents,
           0 AS order_count, 0 AS protected_order_count, 0 AS claims_filed, 0 AS claims_approved, 0 AS claims_denied, 0 AS claims_paid, 0::bigint AS claims_paid_cents
      FROM premium_ledger_entries e
    UNION ALL
    SELECT o.store_id, (o.source_created_on AT TIME ZONE 'UTC')::date, 0, 0, 0, 0, 0, 0, 1, o.insurance_selected::int, 0, 0, 0, 0, 0
      FROM orders o
    UNION ALL
    SELECT c.store_id, (c.created_on AT TIME ZONE 'UTC')::date, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0
      FROM claims c
    UNION ALL
    SELECT c.store_id, (c.payout_paid_on AT TIME ZONE 'UTC')::date, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, COALESCE(c.payout_amount_cents, 0)
      FROM claims c WHERE c.payout_paid_on IS NOT NULL
    UNION ALL
    SELECT c.store_id, (h.created_at AT TIME ZONE 'UTC')::date, 0, 0, 0, 0, 0, 0, 0, 0, 0,
           (h.to_status = 'approved')::int, (h.to_status = 'denied')::int, 0, 0
      FROM claim_status_changes h JOIN claims c ON c.id = h.claim_id
     WHERE h.to_status IN ('approved', 'denied')
  ) AS movements
 GROUP BY store_id, day;

-- Adds a movement into the caller's slot row of (store, day). Named arguments default to 0.
CREATE FUNCTION store_daily_totals_add(
  p_store uuid, p_day date,
  p_premium_count integer DEFAULT 0, p_premium_cents bigint DEFAULT 0,
  p_repricing_count integer DEFAULT 0, p_repricing_cents bigint DEFAULT 0,
  p_reversal_count integer DEFAULT 0, p_reversal_cents bigint DEFAULT 0,
  p_order_count integer DEFAULT 0, p_protected_order_count integer DEFAULT 0,
  p_claims_filed integer DEFAULT 0, p_claims_approved integer DEFAULT 0, p_claims_denied integer DEFAULT 0,
  p_claims_paid integer DEFAULT 0, p_claims_paid_cents bigint DEFAULT 0
) RETURNS void LANGUAGE sql AS $$
  INSERT INTO store_daily_totals AS t (store_id, day, slot, premium_count, premium_cents, repricing_count, repricing_cents,
    reversal_count, reversal_cents, order_count, protected_order_count, claims_filed, claims_approved, claims_denied,
    claims_paid, claims_paid_cents)
  VALUES (p_store, p_day, pg_backend_pid() % 16, p_premium_count, p_premium_cents, p_repricing_count, p_repricing_cents,
    p_reversal_count, p_reversal_cents, p_order_count, p_protected_order_count, p_claims_filed, p_claims_approved,
    p_claims_denied, p_claims_paid, p_claims_paid_cents)
  ON CONFLICT (store_id, day, slot) DO UPDATE SET
    premium_count = t.premium_count + EXCLUDED.premium_count,
    premium_cents = t.premium_cents + EXCLUDED.premium_cents,
    repricing_count = t.repricing_count + EXCLUDED.repricing_count,
    repricing_cents = t.repricing_cents + EXCLUDED.repricing_cents,
    reversal_count = t.reversal_count + EXCLUDED.reversal_count,
    reversal_cents = t.reversal_cents + EXCLUDED.reversal_cents,
    order_count = t.order_count + EXCLUDED.order_count,
    protected_order_count = t.protected_order_count + EXCLUDED.protected_order_count,
    claims_filed = t.claims_filed + EXCLUDED.claims_filed,
    claims_approved = t.claims_approved + EXCLUDED.claims_approved,
    claims_denied = t.claims_denied + EXCLUDED.claims_denied,
    claims_paid = t.claims_paid + EXCLUDED.claims_paid,
    claims_paid_cents = t.claims_paid_cents + EXCLUDED.claims_paid_cents
$$;

-- Ledger entries: one movement per entry, by reason, on the UTC day of its effective date. The
-- ledger is append-only (its guard refuses UPDATE, DELETE and TRUNCATE), so an insert is all.
CREATE FUNCTION store_daily_totals_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM store_daily_totals_add(NEW.store_id, (NEW.effective_at AT TIME ZONE 'UTC')::date,
    p_premium_count => (NEW.reason = 'booking')::int,
    p_premium_cents => CASE WHEN NEW.reason = 'booking' THEN NEW.amount_cents ELSE 0 END,
    p_repricing_count => (NEW.reason = 'repricing')::int,
    p_repricing_cents => CASE WHEN NEW.reason = 'repricing' THEN NEW.amount_cents ELSE 0 END,
    p_reversal_count => (NEW.reason = 'reversal')::int,
    p_reversal_cents => CASE WHEN NEW.reason = 'reversal' THEN NEW.amount_cents ELSE 0 END);
  RETURN NULL;
END $$;

CREATE TRIGGER store_daily_totals_ledger AFTER INSERT ON premium_ledger_entries
  FOR EACH ROW EXECUTE FUNCTION store_daily_totals_ledger();

-- Orders, claims and decisions are updated (an order's protection switched, a claim paid) and
-- could be deleted by hand: an update or a delete takes the old movement back before adding the new.
-- Orders: counted on the UTC day they were placed (source_created_on, the day billing books them).
CREATE FUNCTION store_daily_totals_order() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  placed orders;
  sign integer;
BEGIN
  FOREACH sign IN ARRAY CASE TG_OP WHEN 'INSERT' THEN ARRAY[1] WHEN 'DELETE' THEN ARRAY[-1] ELSE ARRAY[-1, 1] END LOOP
    IF sign = 1 THEN placed := NEW; ELSE placed := OLD; END IF;
    PERFORM store_daily_totals_add(placed.store_id, (placed.source_created_on AT TIME ZONE 'UTC')::date,
      p_order_count => sign, p_protected_order_count => sign * placed.insurance_selected::int);
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER store_daily_totals_order_insert AFTER INSERT OR DELETE ON orders
  FOR EACH ROW EXECUTE FUNCTION store_daily_totals_order();
CREATE TRIGGER store_daily_totals_order_update AFTER UPDATE ON orders
  FOR EACH ROW WHEN (OLD.store_id IS DISTINCT FROM NEW.store_id OR OLD.source_created_on IS DISTINCT FROM NEW.source_created_on
    OR OLD.insurance_selected IS DISTINCT FROM NEW.insurance_selected)
  EXECUTE FUNCTION store_daily_totals_order();

-- Claims: filed on the UTC day of created_on; paid on the day of payout_paid_on, with its amount.
CREATE FUNCTION store_daily_totals_claim() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  claim claims;
  sign integer;
BEGIN
  FOREACH sign IN ARRAY CASE TG_OP WHEN 'INSERT' THEN ARRAY[1] WHEN 'DELETE' THEN ARRAY[-1] ELSE ARRAY[-1, 1] END LOOP
    IF sign = 1 THEN claim := NEW; ELSE claim := OLD; END IF;
    PERFORM store_daily_totals_add(claim.store_id, (claim.created_on AT TIME ZONE 'UTC')::date, p_claims_filed => sign);
    IF claim.payout_paid_on IS NOT NULL THEN
      PERFORM store_daily_totals_add(claim.store_id, (claim.payout_paid_on AT TIME ZONE 'UTC')::date,
        p_claims_paid => sign, p_claims_paid_cents => sign * COALESCE(claim.payout_amount_cents, 0));
    END IF;
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER store_daily_totals_claim_insert AFTER INSERT OR DELETE ON claims
  FOR EACH ROW EXECUTE FUNCTION store_daily_totals_claim();
CREATE TRIGGER store_daily_totals_claim_update AFTER UPDATE ON claims
  FOR EACH ROW WHEN (OLD.store_id IS DISTINCT FROM NEW.store_id OR OLD.created_on IS DISTINCT FROM NEW.created_on
    OR OLD.payout_paid_on IS DISTINCT FROM NEW.payout_paid_on OR OLD.payout_amount_cents IS DISTINCT FROM NEW.payout_amount_cents)
  EXECUTE FUNCTION store_daily_totals_claim();

-- Decisions: a change to approved or denied, on the UTC day it was made.
CREATE FUNCTION store_daily_totals_claim_decision() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change claim_status_changes;
  sign integer;
BEGIN
  FOREACH sign IN ARRAY CASE TG_OP WHEN 'INSERT' THEN ARRAY[1] WHEN 'DELETE' THEN ARRAY[-1] ELSE ARRAY[-1, 1] END LOOP
    IF sign = 1 THEN change := NEW; ELSE change := OLD; END IF;
    IF change.to_status IN ('approved', 'denied') THEN
      PERFORM store_daily_totals_add((SELECT store_id FROM claims WHERE id = change.claim_id), (change.created_at AT TIME ZONE 'UTC')::date,
        p_claims_approved => sign * (change.to_status = 'approved')::int,
        p_claims_denied => sign * (change.to_status = 'denied')::int);
    END IF;
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER store_daily_totals_claim_decision_insert AFTER INSERT OR DELETE ON claim_status_changes
  FOR EACH ROW EXECUTE FUNCTION store_daily_totals_claim_decision();
CREATE TRIGGER store_daily_totals_claim_decision_update AFTER UPDATE ON claim_status_changes
  FOR EACH ROW WHEN (OLD.claim_id IS DISTINCT FROM NEW.claim_id OR OLD.to_status IS DISTINCT FROM NEW.to_status
    OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION store_daily_totals_claim_decision();

-- Recomputes one store's totals from its rows: after rows were loaded with triggers off
-- (session_replication_role = replica), or to repair. The table lock waits for the writers in flight
-- and holds new ones until the caller's transaction commits, so none is counted twice or lost.
CREATE FUNCTION rebuild_store_daily_totals(p_store uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE store_daily_totals IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM store_daily_totals WHERE store_id = p_store;
  INSERT INTO store_daily_totals (store_id, day, slot, premium_count, premium_cents, repricing_count, repricing_cents,
    reversal_count, reversal_cents, order_count, protected_order_count, claims_filed, claims_approved, claims_denied,
    claims_paid, claims_paid_cents)
  SELECT store_id, day, 0, premium_count, premium_cents, repricing_count, repricing_cents, reversal_count, reversal_cents,
         order_count, protected_order_count, claims_filed, claims_approved, claims_denied, claims_paid, claims_paid_cents
    FROM store_daily_totals_from_sources WHERE store_id = p_store;
END $$;

SELECT rebuild_store_daily_totals(id) FROM stores;

-- The overview counts a store's open claims on every read.
CREATE INDEX claims_store_status_idx ON claims (store_id, status);
