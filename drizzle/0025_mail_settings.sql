CREATE TABLE `mail_settings` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`smtp_url_enc` text NOT NULL,
	`from_address` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
