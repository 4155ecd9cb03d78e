-- A claim reads the oldest ready job of its kind as one step of this index, however many wait.
CREATE INDEX "jobs_claim_idx" ON "jobs" USING btree ("kind","status","available_at","id");
