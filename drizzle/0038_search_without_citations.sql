-- A note's search words leave out its citations' link markup ("[01:05](/notes/nt_1#t=65)"),
-- which made a search for "notes" find every note that cites a moment. The notes indexed
-- before are rewritten here; notula_without_citations is registered on the connection by
-- src/db/open.ts (the same function the index uses for every note written since).
UPDATE notes_fts SET body = notula_without_citations(body)
WHERE rowid IN (SELECT seq FROM notes WHERE summary LIKE '%](/notes/%' OR enhanced_note LIKE '%](/notes/%');
