-- The requests each store's keys made in the last 24 hours, for the console's developers page:
-- method, path, status, request id and duration, never a header, a query or a body. Written in
-- batches after the requests are answered; the hourly sweep deletes what is older than a day.
CREATE TABLE "request_log" (
  "id" BIGSERIAL NOT NULL,
  "store_id" UUID NOT NULL,
  "at" TIMESTAMPTZ(3) NOT NULL,
  "mode" "key_mode" NOT NULL,
  "method" TEXT NOT NULL,
  "path" TEXT NOT NULL,
  "status" INTEGER NOT NULL,
  "request_id" TEXT NOT NULL,
  "duration_ms" INTEGER NOT NULL,
  CONSTRAINT "request_log_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "request_log_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "request_log_store_id_id_idx" ON "request_log"("store_id", "id");
CREATE INDEX "request_log_at_idx" ON "request_log"("at");
