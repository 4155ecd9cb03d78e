-- Full-text search over what a note says (svc_search_notes, svc_search_knowledge):
-- title, the user's notes, summary, enhanced note and transcript, ranked by bm25.
-- Rows are written by the notes repository whenever any of those change; rowid is notes.seq.
CREATE VIRTUAL TABLE `notes_fts` USING fts5(title, body, tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `notes_fts_ad` AFTER DELETE ON `notes` BEGIN
  DELETE FROM notes_fts WHERE rowid = old.seq;
END;
--> statement-breakpoint
CREATE VIRTUAL TABLE `knowledge_fts` USING fts5(article_id UNINDEXED, workspace_id UNINDEXED, title, content, tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `knowledge_fts_ai` AFTER INSERT ON `knowledge_articles` BEGIN
  INSERT INTO knowledge_fts(article_id, workspace_id, title, content) VALUES (new.id, new.workspace_id, new.title, new.content);
END;
--> statement-breakpoint
CREATE TRIGGER `knowledge_fts_ad` AFTER DELETE ON `knowledge_articles` BEGIN
  DELETE FROM knowledge_fts WHERE article_id = old.id;
END;
