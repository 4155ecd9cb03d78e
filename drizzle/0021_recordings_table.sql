CREATE TABLE `recordings` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`note_id` text,
	`format` text NOT NULL,
	`content_type` text NOT NULL,
	`max_bytes` integer NOT NULL,
	`status` text NOT NULL,
	`quiet_until` integer NOT NULL,
	`bytes` integer,
	`created_at` integer NOT NULL,
	`stopped_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `recordings_workspace_status_idx` ON `recordings` (`workspace_id`,`status`);--> statement-breakpoint
-- Live recordings were uploads of their own kind (declared_duration_sec 0, pieces of
-- their own): each moves here as it is, one in progress still recording, with its
-- silence deadline; the note keeps its id, which now names the recording.
INSERT INTO `recordings` (`id`, `workspace_id`, `user_id`, `note_id`, `format`, `content_type`, `max_bytes`, `status`, `quiet_until`, `bytes`, `created_at`, `stopped_at`)
SELECT `id`, `workspace_id`, `user_id`, `note_id`, `extension`, `content_type`, `max_bytes`,
  CASE WHEN `status` = 'recording' THEN 'recording' ELSE 'stopped' END,
  `expires_at`, `bytes`, `created_at`, CASE WHEN `status` = 'recording' THEN NULL ELSE `uploaded_at` END
FROM `audio_uploads`
WHERE `status` = 'recording' OR `declared_duration_sec` = 0 OR `id` IN (SELECT `upload_id` FROM `recording_pieces`);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_recording_pieces` (
	`upload_id` text NOT NULL,
	`seq` integer NOT NULL,
	`bytes` integer NOT NULL,
	`sha256` text NOT NULL,
	`duration_ms` integer,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`upload_id`, `seq`),
	FOREIGN KEY (`upload_id`) REFERENCES `recordings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_recording_pieces`("upload_id", "seq", "bytes", "sha256", "duration_ms", "received_at") SELECT "upload_id", "seq", "bytes", "sha256", "duration_ms", "received_at" FROM `recording_pieces`;--> statement-breakpoint
DROP TABLE `recording_pieces`;--> statement-breakpoint
ALTER TABLE `__new_recording_pieces` RENAME TO `recording_pieces`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
-- Only now that the pieces belong to recordings: deleting the uploads they belonged to
-- before would have taken them with it (ON DELETE CASCADE).
DELETE FROM `audio_uploads` WHERE `id` IN (SELECT `id` FROM `recordings`);