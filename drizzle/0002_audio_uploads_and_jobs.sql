CREATE TABLE `audio_uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`extension` text NOT NULL,
	`content_type` text NOT NULL,
	`max_bytes` integer NOT NULL,
	`declared_duration_sec` integer NOT NULL,
	`status` text NOT NULL,
	`bytes` integer,
	`note_id` text,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`uploaded_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `audio_uploads_workspace_idx` ON `audio_uploads` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer NOT NULL,
	`available_at` integer NOT NULL,
	`lease_until` integer,
	`last_error` text,
	`idempotency_key` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `jobs_ready_idx` ON `jobs` (`status`,`available_at`);--> statement-breakpoint
CREATE INDEX `jobs_idempotency_idx` ON `jobs` (`idempotency_key`,`status`);--> statement-breakpoint
ALTER TABLE `notes` ADD `audio_upload_id` text;--> statement-breakpoint
ALTER TABLE `notes` ADD `processing_info` text;