CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`display_prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`scopes` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_uq` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_workspace_idx` ON `api_keys` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `folder_members` (
	`folder_id` text NOT NULL,
	`user_id` text NOT NULL,
	PRIMARY KEY(`folder_id`, `user_id`),
	FOREIGN KEY (`folder_id`) REFERENCES `folders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `folder_members_user_idx` ON `folder_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `folders` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`icon` text,
	`color` text NOT NULL,
	`is_private` integer NOT NULL,
	`parent_folder_id` text,
	`owner_user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `folders_workspace_idx` ON `folders` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `group_members` (
	`group_id` text NOT NULL,
	`member_id` text NOT NULL,
	PRIMARY KEY(`group_id`, `member_id`),
	FOREIGN KEY (`group_id`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `group_members_member_idx` ON `group_members` (`member_id`);--> statement-breakpoint
CREATE TABLE `invite_folders` (
	`invite_id` text NOT NULL,
	`folder_id` text NOT NULL,
	PRIMARY KEY(`invite_id`, `folder_id`),
	FOREIGN KEY (`invite_id`) REFERENCES `invites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`folder_id`) REFERENCES `folders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `invite_groups` (
	`invite_id` text NOT NULL,
	`group_id` text NOT NULL,
	PRIMARY KEY(`invite_id`, `group_id`),
	FOREIGN KEY (`invite_id`) REFERENCES `invites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `invites` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`email` text,
	`code` text NOT NULL,
	`role` text NOT NULL,
	`is_url_invite` integer NOT NULL,
	`invited_by_user_id` text,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`accepted_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invites_code_uq` ON `invites` (`code`);--> statement-breakpoint
CREATE INDEX `invites_workspace_pending_idx` ON `invites` (`workspace_id`,`accepted_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `knowledge_articles` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `knowledge_ws_created_idx` ON `knowledge_articles` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `members` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `members_workspace_user_uq` ON `members` (`workspace_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `members_workspace_created_idx` ON `members` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `note_folders` (
	`note_id` text NOT NULL,
	`folder_id` text NOT NULL,
	PRIMARY KEY(`note_id`, `folder_id`),
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`folder_id`) REFERENCES `folders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `note_folders_folder_idx` ON `note_folders` (`folder_id`,`note_id`);--> statement-breakpoint
CREATE TABLE `note_participant_emails` (
	`note_id` text NOT NULL,
	`email_norm` text NOT NULL,
	PRIMARY KEY(`email_norm`, `note_id`),
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `note_participant_emails_note_idx` ON `note_participant_emails` (`note_id`);--> statement-breakpoint
CREATE TABLE `notes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`created_by` text NOT NULL,
	`title` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`visibility` text NOT NULL,
	`user_written_note` text DEFAULT '' NOT NULL,
	`enhanced_note` text DEFAULT '' NOT NULL,
	`summary` text DEFAULT '' NOT NULL,
	`total_duration_sec` integer DEFAULT 0 NOT NULL,
	`participants` text NOT NULL,
	`calendar_event` text,
	`input_language` text,
	`translation_language` text,
	`meeting_app` text,
	`processing_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notes_id_unique` ON `notes` (`id`);--> statement-breakpoint
CREATE INDEX `notes_ws_created_idx` ON `notes` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `notes_ws_updated_idx` ON `notes` (`workspace_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `notes_ws_title_idx` ON `notes` (`workspace_id`,"title" COLLATE NOCASE,`id`);--> statement-breakpoint
CREATE INDEX `notes_ws_status_created_idx` ON `notes` (`workspace_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `notes_ws_creator_created_idx` ON `notes` (`workspace_id`,`created_by`,`created_at`);--> statement-breakpoint
CREATE TABLE `tags` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`color` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tags_workspace_name_uq` ON `tags` (`workspace_id`,`name`);--> statement-breakpoint
CREATE TABLE `transcript_segments` (
	`note_id` text NOT NULL,
	`position` integer NOT NULL,
	`speaker` text NOT NULL,
	`text` text NOT NULL,
	`start_sec` integer NOT NULL,
	`end_sec` integer NOT NULL,
	PRIMARY KEY(`note_id`, `position`),
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `user_groups` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_groups_workspace_name_uq` ON `user_groups` (`workspace_id`,`name`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`profile_url` text DEFAULT '' NOT NULL,
	`password_hash` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_uq` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`hook_url` text NOT NULL,
	`secret_enc` text NOT NULL,
	`created_by_user_id` text,
	`created_at` integer NOT NULL,
	`disabled_at` integer,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhooks_workspace_url_uq` ON `webhooks` (`workspace_id`,`hook_url`);--> statement-breakpoint
CREATE TABLE `workspaces` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`plan` text NOT NULL,
	`settings` text NOT NULL,
	`allowed_email_domains` text NOT NULL,
	`icon_url` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
