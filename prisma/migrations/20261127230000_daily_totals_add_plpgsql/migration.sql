-- store_daily_totals_add as PL/pgSQL: a SQL-language function whose body is an INSERT is planned
-- again on every call, and the triggers call it once per order, ledger entry and claim change. A
-- PL/pgSQL function keeps its statement's plan for the session. Same arguments, same effect.
CREATE OR REPLACE FUNCTION store_daily_totals_add(
  p_store uuid, p_day date,
  p_premium_count integer DEFAULT 0, p_premium_cents bigint DEFAULT 0,
  p_repricing_count integer DEFAULT 0, p_repricing_cents bigint DEFAULT 0,
  p_reversal_count integer DEFAULT 0, p_reversal_cents bigint DEFAULT 0,
  p_order_count integer DEFAULT 0, p_protected_order_count integer DEFAULT 0,
  p_claims_filed integer DEFAULT 0, p_claims_approved integer DEFAULT 0, p_claims_denied integer DEFAULT 0,
  p_claims_paid integer DEFAULT 0, p_claims_paid_cents bigint DEFAULT 0
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
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
    claims_paid_cents = t.claims_paid_cents + EXCLUDED.claims_paid_cents;
END $$;
