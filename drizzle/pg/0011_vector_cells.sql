-- Meaning-based search without pgvector, partitioned as on SQLite: past a threshold a
-- workspace's vectors are partitioned into cells (k-means centroids, by generation),
-- and a search screens the bits of the cells nearest its query instead of its newest
-- passages. Every vector starts in cell 0 (not placed); the server's background build
-- trains the cells and moves each vector to its own.
--
-- The vectors themselves become bytes (float32, little-endian), the closest few hundred
-- of a search compared exactly by the server: PostgreSQL spent some 100 microseconds on
-- each as real[] (unnest and sum), and as much again writing real[] as text for the
-- server. The same 4 bytes a dimension.
ALTER TABLE "passage_vectors" ADD COLUMN "embedding_bytes" bytea;
--> statement-breakpoint
UPDATE "passage_vectors" SET "embedding_bytes" = coalesce((
	SELECT string_agg(
		substring(float4send(x) FROM 4 FOR 1) || substring(float4send(x) FROM 3 FOR 1)
		|| substring(float4send(x) FROM 2 FOR 1) || substring(float4send(x) FROM 1 FOR 1),
		''::bytea ORDER BY i)
	FROM unnest("embedding") WITH ORDINALITY AS u(x, i)), ''::bytea);
--> statement-breakpoint
ALTER TABLE "passage_vectors" DROP COLUMN "embedding";
--> statement-breakpoint
ALTER TABLE "passage_vectors" RENAME COLUMN "embedding_bytes" TO "embedding";
--> statement-breakpoint
ALTER TABLE "passage_vectors" ALTER COLUMN "embedding" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "passage_vectors" ADD COLUMN "cell" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- One index serves the screen (a workspace's cells, each read whole; cell 0 newest
-- first) and the build (the vectors not yet in a cell of the newest generation).
CREATE INDEX "passage_vectors_cell_idx" ON "passage_vectors" ("workspace_id", "cell", "passage_id") INCLUDE ("model", "code");
--> statement-breakpoint
DROP INDEX IF EXISTS "passage_vectors_screen_idx";
--> statement-breakpoint
CREATE TABLE "passage_centroids" (
	"cell" serial PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"dims" integer NOT NULL,
	"generation" integer NOT NULL,
	"centroid" real[] NOT NULL
);
--> statement-breakpoint
CREATE INDEX "passage_centroids_workspace_idx" ON "passage_centroids" ("workspace_id", "dims", "generation");
--> statement-breakpoint
-- A workspace's vectors of one size: how many, and the generation of cells they are
-- partitioned by (0 until there are enough of them for that to pay).
CREATE TABLE "passage_indexes" (
	"workspace_id" text NOT NULL REFERENCES "workspaces"("id") ON DELETE cascade,
	"dims" integer NOT NULL,
	"passages" integer DEFAULT 0 NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"cells" integer DEFAULT 0 NOT NULL,
	"trained_on" integer DEFAULT 0 NOT NULL,
	"building_since" bigint,
	"build_progress" real,
	PRIMARY KEY ("workspace_id", "dims")
);
--> statement-breakpoint
INSERT INTO "passage_indexes" ("workspace_id", "dims", "passages")
SELECT p."workspace_id", p."dims", count(*)
FROM "passages" p JOIN "passage_vectors" v ON v."passage_id" = p."id"
WHERE p."dims" IS NOT NULL
GROUP BY p."workspace_id", p."dims";
