-- Search that finds the moment (what drizzle/0014 does with FTS5): the transcript
-- segments' words, stemmed as English, in a GIN index over the segments themselves.
CREATE INDEX "transcript_segments_tsv_idx" ON "transcript_segments" USING gin (to_tsvector('english', "text"));
