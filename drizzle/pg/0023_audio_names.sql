ALTER TABLE "notes" RENAME COLUMN "audio_upload_id" TO "upload_id";--> statement-breakpoint
ALTER TABLE "recording_pieces" RENAME COLUMN "upload_id" TO "recording_id";--> statement-breakpoint
ALTER TABLE "recording_pieces" DROP CONSTRAINT "recording_pieces_upload_id_recordings_id_fk";
--> statement-breakpoint
ALTER TABLE "recording_pieces" DROP CONSTRAINT "recording_pieces_upload_id_seq_pk";--> statement-breakpoint
ALTER TABLE "recording_pieces" ADD CONSTRAINT "recording_pieces_recording_id_seq_pk" PRIMARY KEY("recording_id","seq");--> statement-breakpoint
ALTER TABLE "notes" ADD COLUMN "recording_id" text;--> statement-breakpoint
ALTER TABLE "recording_pieces" ADD CONSTRAINT "recording_pieces_recording_id_recordings_id_fk" FOREIGN KEY ("recording_id") REFERENCES "public"."recordings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
UPDATE "notes" SET "recording_id" = "upload_id", "upload_id" = NULL WHERE "upload_id" IN (SELECT "id" FROM "recordings");
