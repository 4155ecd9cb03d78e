ALTER TABLE "notes" ADD COLUMN "awaiting_engine_since" bigint;--> statement-breakpoint
CREATE INDEX "notes_awaiting_engine_idx" ON "notes" USING btree ("awaiting_engine_since");