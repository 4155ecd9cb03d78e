CREATE TABLE "note_voices" (
	"note_id" text NOT NULL,
	"label" text NOT NULL,
	"embedding" json NOT NULL,
	CONSTRAINT "note_voices_note_id_label_pk" PRIMARY KEY("note_id","label")
);
--> statement-breakpoint
CREATE TABLE "voice_prints" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"embedding" json NOT NULL,
	"samples" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "note_speakers" ADD COLUMN "suggested" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "note_voices" ADD CONSTRAINT "note_voices_note_id_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."notes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_prints" ADD CONSTRAINT "voice_prints_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "voice_prints_workspace_idx" ON "voice_prints" USING btree ("workspace_id");