-- A quote never changes, except that its cart text (cart_items, recorded as the storefront sent
-- it, so possibly personal data) can be erased with the order it priced. Everything else, and so
-- every amount each instance keeps in memory, stays refused.
CREATE OR REPLACE FUNCTION quotes_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.cart_items IS NULL
     AND (to_jsonb(NEW) - 'cart_items') = (to_jsonb(OLD) - 'cart_items') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'quotes are immutable: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;
