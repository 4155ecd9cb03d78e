CREATE TABLE `action_items` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`note_id` text NOT NULL,
	`position` integer NOT NULL,
	`key` text NOT NULL,
	`text` text NOT NULL,
	`owner_name` text,
	`owner_user_id` text,
	`due` text,
	`cited_sec` integer,
	`done_at` integer,
	`done_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `action_items_note_idx` ON `action_items` (`note_id`,`position`);--> statement-breakpoint
CREATE INDEX `action_items_owner_idx` ON `action_items` (`workspace_id`,`owner_user_id`,`done_at`,`due`);--> statement-breakpoint
CREATE INDEX `action_items_ws_due_idx` ON `action_items` (`workspace_id`,`done_at`,`due`);