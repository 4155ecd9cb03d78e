-- Search sees who was there: each note's search row gains a last line naming its
-- participants ("Ana Lima ana@partner.example ana partner example, Ben"), as
-- src/db/pg/search.ts writes it: PostgreSQL keeps an address as one word, so its words follow it.
UPDATE notes_search s
SET body = concat_ws(E'\n', nullif(s.body, ''), w.people)
FROM (
  SELECT n.seq, string_agg(nullif(trim(concat_ws(' ', p->>'name', p->>'email', nullif(translate(p->>'email', '@.', '  '), ''))), ''), ', ' ORDER BY i) AS people
  FROM notes n, json_array_elements(n.participants) WITH ORDINALITY AS x(p, i)
  GROUP BY n.seq
) w
WHERE w.seq = s.note_seq AND w.people IS NOT NULL;
