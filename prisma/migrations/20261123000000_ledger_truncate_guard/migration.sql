-- The ledger's append-only guard fires per row, and TRUNCATE touches no row: it emptied the ledger
-- (and so every premium and invoice) without a word. A statement trigger refuses it too, also when
-- the ledger is reached by TRUNCATE orders CASCADE.
CREATE TRIGGER "premium_ledger_entries_no_truncate"
    BEFORE TRUNCATE ON "premium_ledger_entries"
    FOR EACH STATEMENT EXECUTE FUNCTION "premium_ledger_is_append_only"();
