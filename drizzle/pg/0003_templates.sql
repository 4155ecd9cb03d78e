CREATE TABLE "ai_settings" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"settings" json NOT NULL,
	"stt_api_key_enc" text,
	"llm_api_key_enc" text,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "note_speakers" (
	"note_id" text NOT NULL,
	"label" text NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "note_speakers_note_id_label_pk" PRIMARY KEY("note_id","label")
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"sections" json NOT NULL,
	"context" text DEFAULT '' NOT NULL,
	"language" text,
	"created_by" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "folders" ADD COLUMN "template_id" text;--> statement-breakpoint
ALTER TABLE "notes" ADD COLUMN "template_id" text;--> statement-breakpoint
ALTER TABLE "notes" ADD COLUMN "processing_warnings" json;--> statement-breakpoint
ALTER TABLE "note_speakers" ADD CONSTRAINT "note_speakers_note_id_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."notes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "templates_workspace_idx" ON "templates" USING btree ("workspace_id","created_at");