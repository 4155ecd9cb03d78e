CREATE TABLE "recording_pieces" (
	"upload_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"duration_ms" bigint,
	"received_at" bigint NOT NULL,
	CONSTRAINT "recording_pieces_upload_id_seq_pk" PRIMARY KEY("upload_id","seq")
);
--> statement-breakpoint
ALTER TABLE "recording_pieces" ADD CONSTRAINT "recording_pieces_upload_id_audio_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."audio_uploads"("id") ON DELETE cascade ON UPDATE no action;