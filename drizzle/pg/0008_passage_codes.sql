-- Meaning-based search without pgvector: each vector's signs as one bit per dimension,
-- with the workspace and model beside them so that a workspace's newest vectors are
-- one walk of an index that holds the bits. A search compares these bits (XOR and a
-- count of ones) over a workspace's newest passages, about a microsecond each, and
-- compares only the closest few hundred exactly; comparing every vector exactly cost
-- over a hundred microseconds per passage.
ALTER TABLE "passage_vectors" ADD COLUMN "code" bit varying, ADD COLUMN "workspace_id" text, ADD COLUMN "model" text;
--> statement-breakpoint
UPDATE "passage_vectors" v SET
	"workspace_id" = p."workspace_id",
	"model" = p."model",
	"code" = (
		SELECT string_agg(CASE WHEN x > 0 THEN '1' ELSE '0' END, '' ORDER BY i)
		FROM unnest(v."embedding") WITH ORDINALITY AS u(x, i)
	)::bit varying
FROM "passages" p WHERE p."id" = v."passage_id";
--> statement-breakpoint
CREATE INDEX "passage_vectors_screen_idx" ON "passage_vectors" ("workspace_id", "model", "passage_id" DESC) INCLUDE ("code");
