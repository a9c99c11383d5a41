-- Rate-limit counters shared by all instances, in the layout rate-limiter-flexible's PostgreSQL
-- store expects (it is told the table exists and never creates it).

CREATE TABLE "rate_limit_counters" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,
    CONSTRAINT "rate_limit_counters_pkey" PRIMARY KEY ("key")
);
CREATE INDEX "rate_limit_counters_expire_idx" ON "rate_limit_counters"("expire");
