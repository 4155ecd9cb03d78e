-- Meaning-based search without pgvector: each vector's signs as one bit per dimension.
-- A search compares these bits (XOR and a count of ones) over a workspace's newest
-- passages, a few microseconds each, and compares only the closest few hundred exactly;
-- comparing every vector exactly cost over a hundred microseconds per passage.
ALTER TABLE "passage_vectors" ADD COLUMN "code" bit varying;
--> statement-breakpoint
UPDATE "passage_vectors" SET "code" = (
	SELECT string_agg(CASE WHEN x > 0 THEN '1' ELSE '0' END, '' ORDER BY i)
	FROM unnest("embedding") WITH ORDINALITY AS u(x, i)
)::bit varying;
