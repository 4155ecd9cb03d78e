ALTER TABLE "transcript_segments" ADD COLUMN "id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "transcript_segments" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The lines transcribed before lines had ids get one each, as the store gives new ones.
UPDATE "transcript_segments" SET "id" = 'seg_' || replace(gen_random_uuid()::text, '-', '') WHERE "id" = '';--> statement-breakpoint
CREATE INDEX "transcript_segments_id_idx" ON "transcript_segments" USING btree ("note_id","id");
