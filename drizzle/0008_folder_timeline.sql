ALTER TABLE `note_folders` ADD `note_created_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `note_folders` SET `note_created_at` = (SELECT `created_at` FROM `notes` WHERE `notes`.`id` = `note_folders`.`note_id`);--> statement-breakpoint
CREATE INDEX `note_folders_timeline_idx` ON `note_folders` (`folder_id`,`note_created_at`,`note_id`);
