-- Search on PostgreSQL: what SQLite does with FTS5 and sqlite-vec (drizzle/0001,
-- 0004, 0005), done with tsvector + GIN and a vector table.
--
-- Title search (GET /v1/notes?search=): every word of the query must start a word of
-- the title, case ignored; the GIN index answers to_tsquery('simple', 'word:*').
CREATE INDEX "notes_title_tsv_idx" ON "notes" USING gin (to_tsvector('simple', "title"));
--> statement-breakpoint
-- Content search (svc_search_notes, svc_search_knowledge): one row per note with the
-- words of its title (weight A) and of everything it says (weight B), stemmed as
-- English like the SQLite index; rewritten by the notes repository whenever a part changes.
CREATE TABLE "notes_search" (
	"note_seq" bigint PRIMARY KEY NOT NULL REFERENCES "notes"("seq") ON DELETE cascade,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"tsv" tsvector GENERATED ALWAYS AS (setweight(to_tsvector('english', "title"), 'A') || setweight(to_tsvector('english', "body"), 'B')) STORED
);
--> statement-breakpoint
CREATE INDEX "notes_search_tsv_idx" ON "notes_search" USING gin ("tsv");
--> statement-breakpoint
CREATE INDEX "knowledge_articles_tsv_idx" ON "knowledge_articles" USING gin ((setweight(to_tsvector('english', "title"), 'A') || setweight(to_tsvector('english', "content"), 'B')));
--> statement-breakpoint
-- Passage vectors for meaning-based search, searched exactly. Where the pgvector
-- extension is installed, the server adds an HNSW-indexed copy at start.
CREATE TABLE "passage_vectors" (
	"passage_id" bigint PRIMARY KEY NOT NULL REFERENCES "passages"("id") ON DELETE cascade,
	"embedding" real[] NOT NULL
);
