DROP INDEX `notes_ws_created_idx`;--> statement-breakpoint
DROP INDEX `notes_ws_updated_idx`;--> statement-breakpoint
DROP INDEX `notes_ws_title_idx`;--> statement-breakpoint
CREATE INDEX `notes_ws_created_idx` ON `notes` (`workspace_id`,`created_at`,`id`,`visibility`,`created_by`);--> statement-breakpoint
CREATE INDEX `notes_ws_updated_idx` ON `notes` (`workspace_id`,`updated_at`,`id`,`visibility`,`created_by`);--> statement-breakpoint
CREATE INDEX `notes_ws_title_idx` ON `notes` (`workspace_id`,"title" COLLATE NOCASE,`id`,`visibility`,`created_by`);