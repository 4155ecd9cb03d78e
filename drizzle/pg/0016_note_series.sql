ALTER TABLE "notes" ADD COLUMN "calendar_series" text;--> statement-breakpoint
CREATE INDEX "notes_ws_series_idx" ON "notes" USING btree ("workspace_id","calendar_series","created_at");