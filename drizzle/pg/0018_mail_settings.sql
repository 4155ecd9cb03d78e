CREATE TABLE "mail_settings" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"smtp_url_enc" text NOT NULL,
	"from_address" text,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_settings" ADD CONSTRAINT "mail_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;