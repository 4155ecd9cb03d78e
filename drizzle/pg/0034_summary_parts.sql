CREATE TABLE "summary_parts" (
	"note_id" text NOT NULL,
	"digest" text NOT NULL,
	"content" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "summary_parts_note_id_digest_pk" PRIMARY KEY("note_id","digest")
);
--> statement-breakpoint
ALTER TABLE "summary_parts" ADD CONSTRAINT "summary_parts_note_id_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."notes"("id") ON DELETE cascade ON UPDATE no action;