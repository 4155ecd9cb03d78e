CREATE TABLE "action_items" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"note_id" text NOT NULL,
	"position" bigint NOT NULL,
	"key" text NOT NULL,
	"text" text NOT NULL,
	"owner_name" text,
	"owner_user_id" text,
	"due" text,
	"cited_sec" bigint,
	"done_at" bigint,
	"done_by" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "action_items" ADD CONSTRAINT "action_items_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_items" ADD CONSTRAINT "action_items_note_id_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."notes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "action_items_note_idx" ON "action_items" USING btree ("note_id","position");--> statement-breakpoint
CREATE INDEX "action_items_owner_idx" ON "action_items" USING btree ("workspace_id","owner_user_id","done_at","due");--> statement-breakpoint
CREATE INDEX "action_items_ws_due_idx" ON "action_items" USING btree ("workspace_id","done_at","due");