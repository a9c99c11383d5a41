-- A quote is what an order's premium was promised at: once written it never changes, which is what
-- lets each instance keep the quotes it has issued or read in memory (server/domain/quotes.ts).
CREATE FUNCTION quotes_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'quotes are immutable: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER quotes_immutable
  BEFORE UPDATE ON quotes
  FOR EACH ROW EXECUTE FUNCTION quotes_are_immutable();
