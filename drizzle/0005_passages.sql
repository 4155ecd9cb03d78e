CREATE TABLE `passages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` text NOT NULL,
	`source` text NOT NULL,
	`source_id` text NOT NULL,
	`position` integer NOT NULL,
	`text` text NOT NULL,
	`timestamp_sec` integer,
	`model` text NOT NULL,
	`dims` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `passages_source_idx` ON `passages` (`source`,`source_id`);--> statement-breakpoint
CREATE INDEX `passages_workspace_idx` ON `passages` (`workspace_id`);