CREATE TABLE `recording_pieces` (
	`upload_id` text NOT NULL,
	`seq` integer NOT NULL,
	`bytes` integer NOT NULL,
	`sha256` text NOT NULL,
	`duration_ms` integer,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`upload_id`, `seq`),
	FOREIGN KEY (`upload_id`) REFERENCES `audio_uploads`(`id`) ON UPDATE no action ON DELETE cascade
);
