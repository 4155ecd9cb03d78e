CREATE TABLE "recordings" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"note_id" text,
	"format" text NOT NULL,
	"content_type" text NOT NULL,
	"max_bytes" bigint NOT NULL,
	"status" text NOT NULL,
	"quiet_until" bigint NOT NULL,
	"bytes" bigint,
	"created_at" bigint NOT NULL,
	"stopped_at" bigint
);
--> statement-breakpoint
ALTER TABLE "recording_pieces" DROP CONSTRAINT "recording_pieces_upload_id_audio_uploads_id_fk";
--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recordings_workspace_status_idx" ON "recordings" USING btree ("workspace_id","status");--> statement-breakpoint
-- Live recordings were uploads of their own kind (declared_duration_sec 0, pieces of
-- their own): each moves here as it is, one in progress still recording, with its
-- silence deadline; the note keeps its id, which now names the recording.
INSERT INTO "recordings" ("id", "workspace_id", "user_id", "note_id", "format", "content_type", "max_bytes", "status", "quiet_until", "bytes", "created_at", "stopped_at")
SELECT "id", "workspace_id", "user_id", "note_id", "extension", "content_type", "max_bytes",
  CASE WHEN "status" = 'recording' THEN 'recording' ELSE 'stopped' END,
  "expires_at", "bytes", "created_at", CASE WHEN "status" = 'recording' THEN NULL ELSE "uploaded_at" END
FROM "audio_uploads"
WHERE "status" = 'recording' OR "declared_duration_sec" = 0 OR "id" IN (SELECT "upload_id" FROM "recording_pieces");
--> statement-breakpoint
DELETE FROM "audio_uploads" WHERE "id" IN (SELECT "id" FROM "recordings");--> statement-breakpoint
ALTER TABLE "recording_pieces" ADD CONSTRAINT "recording_pieces_upload_id_recordings_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."recordings"("id") ON DELETE cascade ON UPDATE no action;