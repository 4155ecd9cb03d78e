-- A vector index of our own for meaning-based search: passages are partitioned into
-- cells (k-means centroids in passage_centroids) per workspace, once there are enough
-- of them, and a search reads only the cells nearest its query. Their bits move from
-- passage_bits_<dims> to passage_codes_<dims> (sqlite-vec tables named by size, which
-- the passages repository makes and fills, and drops the old ones, after this).
CREATE TABLE `passage_centroids` (
	`cell` integer PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`dims` integer NOT NULL,
	`generation` integer NOT NULL,
	`centroid` blob NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `passage_centroids_workspace_idx` ON `passage_centroids` (`workspace_id`,`dims`,`generation`);--> statement-breakpoint
CREATE TABLE `passage_indexes` (
	`workspace_id` text NOT NULL,
	`dims` integer NOT NULL,
	`passages` integer DEFAULT 0 NOT NULL,
	`generation` integer DEFAULT 0 NOT NULL,
	`cells` integer DEFAULT 0 NOT NULL,
	`trained_on` integer DEFAULT 0 NOT NULL,
	`building_since` integer,
	`build_progress` real,
	PRIMARY KEY(`workspace_id`, `dims`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `passage_members` (
	`passage_id` integer PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`dims` integer NOT NULL,
	`cell` integer NOT NULL,
	FOREIGN KEY (`passage_id`) REFERENCES `passages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `passage_members_cell_idx` ON `passage_members` (`workspace_id`,`dims`,`cell`);--> statement-breakpoint
INSERT INTO `passage_members` (`passage_id`, `workspace_id`, `dims`, `cell`)
	SELECT `id`, `workspace_id`, `dims`, 0 FROM `passages` WHERE `embedding` IS NOT NULL AND `dims` % 8 = 0;
--> statement-breakpoint
INSERT INTO `passage_indexes` (`workspace_id`, `dims`, `passages`)
	SELECT `workspace_id`, `dims`, count(*) FROM `passage_members` GROUP BY `workspace_id`, `dims`;
