CREATE TABLE `mcp_sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`key_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mcp_sessions_expiry_idx` ON `mcp_sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `pending_states` (
	`kind` text NOT NULL,
	`key_hash` text NOT NULL,
	`value` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`kind`, `key_hash`)
);
--> statement-breakpoint
CREATE INDEX `pending_states_expiry_idx` ON `pending_states` (`expires_at`);