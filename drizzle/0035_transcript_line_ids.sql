ALTER TABLE `transcript_segments` ADD `id` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `transcript_segments` ADD `version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The lines transcribed before lines had ids get one each, as the store gives new ones.
UPDATE `transcript_segments` SET `id` = 'seg_' || lower(hex(randomblob(12))) WHERE `id` = '';--> statement-breakpoint
CREATE INDEX `transcript_segments_id_idx` ON `transcript_segments` (`note_id`,`id`);
