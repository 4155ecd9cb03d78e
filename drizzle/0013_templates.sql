CREATE TABLE `ai_settings` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`settings` text NOT NULL,
	`stt_api_key_enc` text,
	`llm_api_key_enc` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `note_speakers` (
	`note_id` text NOT NULL,
	`label` text NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`note_id`, `label`),
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `templates` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`sections` text NOT NULL,
	`context` text DEFAULT '' NOT NULL,
	`language` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `templates_workspace_idx` ON `templates` (`workspace_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `folders` ADD `template_id` text;--> statement-breakpoint
ALTER TABLE `notes` ADD `template_id` text;--> statement-breakpoint
ALTER TABLE `notes` ADD `processing_warnings` text;