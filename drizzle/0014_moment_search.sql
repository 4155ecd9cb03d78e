-- Search that finds the moment: every transcript segment in its own full-text index,
-- so that a hit names the segment, its time and its speaker. rowid packs the note's
-- seq and the segment's position ((seq << 20) + position), so one note's segments are
-- one rowid range: found together, and deleted together with the note.
-- Rows are written by the notes repository with the transcript.
CREATE VIRTUAL TABLE `segments_fts` USING fts5(text, tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `segments_fts`(rowid, text)
SELECT (n.seq << 20) + t.position, t.text FROM transcript_segments t JOIN notes n ON n.id = t.note_id WHERE t.position < 1048576;
--> statement-breakpoint
CREATE TRIGGER `segments_fts_note_ad` AFTER DELETE ON `notes` BEGIN
  DELETE FROM segments_fts WHERE rowid BETWEEN (old.seq << 20) AND (old.seq << 20) + 1048575;
END;
