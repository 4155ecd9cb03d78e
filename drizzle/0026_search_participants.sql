-- Search sees who was there: each note's content row gains a last line naming its
-- participants ("Ana Lima ana@partner.example, Ben"), as src/db/sqlite/notes.ts writes it.
UPDATE notes_fts SET body = CASE WHEN body = '' THEN '' ELSE body || char(10) END || (
  SELECT group_concat(trim(coalesce(json_extract(p.value, '$.name'), '') || ' ' || coalesce(json_extract(p.value, '$.email'), '')), ', ')
  FROM notes n, json_each(n.participants) p
  WHERE n.seq = notes_fts.rowid
    AND trim(coalesce(json_extract(p.value, '$.name'), '') || ' ' || coalesce(json_extract(p.value, '$.email'), '')) <> ''
)
WHERE rowid IN (SELECT seq FROM notes WHERE json_array_length(participants) > 0)
  AND EXISTS (
    SELECT 1 FROM notes n, json_each(n.participants) p
    WHERE n.seq = notes_fts.rowid
      AND trim(coalesce(json_extract(p.value, '$.name'), '') || ' ' || coalesce(json_extract(p.value, '$.email'), '')) <> ''
  );
