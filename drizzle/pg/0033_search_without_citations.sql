-- A note's search words leave out its citations' link markup ("[01:05](/notes/nt_1#t=65)"),
-- which made a search for "notes" find every note that cites a moment; the pattern is
-- src/shared/note-links.ts CITATION_SQL_PATTERN.
UPDATE notes_search s SET body = regexp_replace(s.body, '[ \t]*\[[0-9]{1,3}(:[0-9]{2}){1,2}\]\(/notes/[^)#[:space:]]+#t=[0-9]{1,7}\)', '', 'g')
FROM notes n
WHERE n.seq = s.note_seq AND (n.summary LIKE '%](/notes/%' OR n.enhanced_note LIKE '%](/notes/%');
