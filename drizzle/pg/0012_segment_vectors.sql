-- Each transcript segment's words kept as a tsvector beside its text. The moments of a
-- page of results are looked for in each note's segments; with only an expression
-- index, every segment's tsvector was computed again for each search (some 20 µs a
-- segment, about 10 ms a page). A search never looks for segments across notes, so the
-- index over all of them goes: its upkeep was paid on every transcript written.
ALTER TABLE "transcript_segments" ADD COLUMN "tsv" tsvector GENERATED ALWAYS AS (to_tsvector('english', "text")) STORED;
--> statement-breakpoint
DROP INDEX IF EXISTS "transcript_segments_tsv_idx";
