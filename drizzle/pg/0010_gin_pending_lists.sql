-- The full-text indexes' pending lists. A GIN index (fastupdate, the default) queues new
-- entries in an unsorted list of up to 4 MB, and every search reads all of it: with a
-- few thousand notes written since the last vacuum, a title search spent 3 to 6 ms in
-- that list and 0.05 ms in the index itself. A title is a few words, cheap to put
-- straight into the index; the search rows and transcript segments, whose entries are
-- many, keep the list for batching but at most 256 kB of it. The lists as they stand
-- are merged now.
ALTER INDEX "notes_title_tsv_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "notes_search_tsv_idx" SET (gin_pending_list_limit = 256);--> statement-breakpoint
ALTER INDEX "transcript_segments_tsv_idx" SET (gin_pending_list_limit = 256);--> statement-breakpoint
ALTER INDEX "knowledge_articles_tsv_idx" SET (gin_pending_list_limit = 256);--> statement-breakpoint
SELECT gin_clean_pending_list(i::regclass) FROM unnest(ARRAY['notes_title_tsv_idx', 'notes_search_tsv_idx', 'transcript_segments_tsv_idx', 'knowledge_articles_tsv_idx']) AS i;
