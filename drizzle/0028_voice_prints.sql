CREATE TABLE `note_voices` (
	`note_id` text NOT NULL,
	`label` text NOT NULL,
	`embedding` text NOT NULL,
	PRIMARY KEY(`note_id`, `label`),
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `voice_prints` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`embedding` text NOT NULL,
	`samples` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `voice_prints_workspace_idx` ON `voice_prints` (`workspace_id`);--> statement-breakpoint
ALTER TABLE `note_speakers` ADD `suggested` integer DEFAULT false NOT NULL;