-- Request counts are for the minute at hand: a crash may lose them (the limits start
-- afresh), and they need no write-ahead log. Logged, every API request waited for a
-- WAL flush of its count before it was answered.
ALTER TABLE "rate_counters" SET UNLOGGED;
