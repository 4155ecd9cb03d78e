-- The facts every request resolves first (keys, sessions, members, workspaces, users and
-- private folders) are counted as they change, by whichever connection or process writes
-- them: the read caches (src/db/read-cache.ts) keep what they read until this count moves,
-- rather than until anything at all is written. The same tables as PostgreSQL's
-- notula_facts triggers (drizzle/pg/0014) and src/db/pg/fact-changes.ts FACT_TABLES.
CREATE TABLE `fact_generation` (`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1), `n` integer NOT NULL);
--> statement-breakpoint
INSERT INTO `fact_generation` (`id`, `n`) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER `api_keys_facts_insert` AFTER INSERT ON `api_keys` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `api_keys_facts_delete` AFTER DELETE ON `api_keys` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `api_keys_facts_update` AFTER UPDATE OF id, workspace_id, user_id, key_hash, scopes, revoked_at ON `api_keys` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `web_sessions_facts_insert` AFTER INSERT ON `web_sessions` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `web_sessions_facts_delete` AFTER DELETE ON `web_sessions` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `web_sessions_facts_update` AFTER UPDATE ON `web_sessions` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `members_facts_insert` AFTER INSERT ON `members` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `members_facts_delete` AFTER DELETE ON `members` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `members_facts_update` AFTER UPDATE ON `members` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `workspaces_facts_insert` AFTER INSERT ON `workspaces` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `workspaces_facts_delete` AFTER DELETE ON `workspaces` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `workspaces_facts_update` AFTER UPDATE ON `workspaces` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `users_facts_insert` AFTER INSERT ON `users` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `users_facts_delete` AFTER DELETE ON `users` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `users_facts_update` AFTER UPDATE ON `users` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `folders_facts_insert` AFTER INSERT ON `folders` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `folders_facts_delete` AFTER DELETE ON `folders` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `folders_facts_update` AFTER UPDATE ON `folders` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `folder_members_facts_insert` AFTER INSERT ON `folder_members` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `folder_members_facts_delete` AFTER DELETE ON `folder_members` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
--> statement-breakpoint
CREATE TRIGGER `folder_members_facts_update` AFTER UPDATE ON `folder_members` BEGIN
  UPDATE fact_generation SET n = n + 1 WHERE id = 1;
END;
