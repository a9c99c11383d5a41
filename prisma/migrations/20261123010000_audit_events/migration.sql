-- Who changed what: one append-only row per change that matters (a claim's status, an API key
-- issued or revoked, a store's settings, a platform connected, an order cancelled, a claim filed),
-- with the actor that made it: an API key, a platform, a console user, the operator's CLI, a job.
-- No personal data and no secret: ids, kinds, and the change's own small facts.
CREATE TYPE "actor_kind" AS ENUM ('api_key', 'platform', 'console_user', 'operator', 'system');

CREATE TABLE "audit_events" (
    "id"           BIGSERIAL PRIMARY KEY,
    "store_id"     UUID REFERENCES "stores"("id") ON DELETE RESTRICT,
    "actor_kind"   "actor_kind" NOT NULL,
    "actor_id"     TEXT NOT NULL,
    "action"       TEXT NOT NULL,
    "subject_type" TEXT NOT NULL,
    "subject_id"   TEXT NOT NULL,
    "details"      JSONB NOT NULL DEFAULT '{}',
    "created_at"   TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "audit_events_store_id_created_at_idx" ON "audit_events" ("store_id", "created_at");
CREATE INDEX "audit_events_subject_idx" ON "audit_events" ("subject_type", "subject_id");

CREATE FUNCTION "audit_events_are_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_events is append-only (% refused)', TG_OP;
END;
$$;
CREATE TRIGGER "audit_events_append_only"
    BEFORE UPDATE OR DELETE ON "audit_events"
    FOR EACH ROW EXECUTE FUNCTION "audit_events_are_append_only"();
CREATE TRIGGER "audit_events_no_truncate"
    BEFORE TRUNCATE ON "audit_events"
    FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_are_append_only"();
