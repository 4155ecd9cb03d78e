CREATE TABLE `note_shares` (
	`note_id` text PRIMARY KEY NOT NULL,
	`token` text NOT NULL,
	`include_transcript` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `note_shares_token_unique` ON `note_shares` (`token`);--> statement-breakpoint
CREATE TABLE `account_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`purpose` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `account_tokens_user_idx` ON `account_tokens` (`user_id`);--> statement-breakpoint
ALTER TABLE `web_sessions` ADD `workspace_id` text REFERENCES workspaces(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `web_sessions` ADD `csrf` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `web_sessions` ADD `user_agent` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `web_sessions` ADD `created_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `web_sessions` ADD `last_seen_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `web_sessions_user_idx` ON `web_sessions` (`user_id`);