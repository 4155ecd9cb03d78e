-- Title search (GET /v1/notes?search=): an FTS5 index over note titles kept in step
-- with `notes` by triggers. Words are matched by prefix, ignoring case and accents,
-- so a search costs in proportion to its matches, not to the size of the workspace.
CREATE VIRTUAL TABLE `notes_title_fts` USING fts5(title, content='notes', content_rowid='seq', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
--> statement-breakpoint
CREATE TRIGGER `notes_title_fts_ai` AFTER INSERT ON `notes` BEGIN
  INSERT INTO notes_title_fts(rowid, title) VALUES (new.seq, new.title);
END;
--> statement-breakpoint
CREATE TRIGGER `notes_title_fts_ad` AFTER DELETE ON `notes` BEGIN
  INSERT INTO notes_title_fts(notes_title_fts, rowid, title) VALUES ('delete', old.seq, old.title);
END;
--> statement-breakpoint
CREATE TRIGGER `notes_title_fts_au` AFTER UPDATE OF title ON `notes` BEGIN
  INSERT INTO notes_title_fts(notes_title_fts, rowid, title) VALUES ('delete', old.seq, old.title);
  INSERT INTO notes_title_fts(rowid, title) VALUES (new.seq, new.title);
END;
