-- Who moved a claim: each status change records its actor (kind and id, as the audit log does), so
-- the console's claim history can say who decided. Changes recorded before this column are filled
-- from the audit log where it has them (the filing, and each change at the same instant).
ALTER TABLE "claim_status_changes" ADD COLUMN "actor_kind" "actor_kind", ADD COLUMN "actor_id" TEXT;

UPDATE "claim_status_changes" AS c
   SET "actor_kind" = a."actor_kind", "actor_id" = a."actor_id"
  FROM "audit_events" AS a
 WHERE a."subject_type" = 'claim'
   AND a."subject_id" = c."claim_id"::text
   AND ((c."from_status" IS NULL AND a."action" = 'claim.filed')
        OR (c."from_status" IS NOT NULL AND a."action" = 'claim.status_changed' AND a."created_at" = c."created_at"));
