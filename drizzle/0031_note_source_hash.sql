ALTER TABLE `notes` ADD `source_hash` text;--> statement-breakpoint
CREATE UNIQUE INDEX `notes_ws_source_hash_idx` ON `notes` (`workspace_id`,`source_hash`) WHERE "notes"."source_hash" IS NOT NULL;