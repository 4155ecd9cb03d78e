ALTER TABLE `notes` RENAME COLUMN "audio_upload_id" TO "upload_id";--> statement-breakpoint
ALTER TABLE `notes` ADD `recording_id` text;--> statement-breakpoint
UPDATE `notes` SET `recording_id` = `upload_id`, `upload_id` = NULL WHERE `upload_id` IN (SELECT `id` FROM `recordings`);--> statement-breakpoint
ALTER TABLE `recording_pieces` RENAME COLUMN "upload_id" TO "recording_id";
