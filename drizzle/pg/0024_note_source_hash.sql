ALTER TABLE "notes" ADD COLUMN "source_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "notes_ws_source_hash_idx" ON "notes" USING btree ("workspace_id","source_hash");