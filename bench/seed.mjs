// Seeds a data dir with N notes (participants, transcript segments, folders) straight
// into SQLite, after the server has created the schema and the first workspace.
import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";

const COMPANIES = Array.from({ length: 500 }, (_, i) => `Company${String(i).padStart(3, "0")}`);
const TOPICS = [
  "budget",
  "roadmap",
  "hiring",
  "pricing",
  "onboarding",
  "security review",
  "renewal",
  "retro",
  "launch",
  "support",
];
const id = (p) => `${p}_${randomBytes(12).toString("base64url")}`;

/** Company whose name the search scenarios look for. */
export const SEARCHED_COMPANY = COMPANIES[123];

/**
 * The benchmark's notes, the same for every database: two participants, ten transcript
 * segments, every fifth note in a folder, spread over two years up to `now`.
 */
export function* seedNotes(count, folders, now) {
  const span = 2 * 365 * 24 * 3600 * 1000;
  for (let i = 0; i < count; i++) {
    const company = COMPANIES[i % COMPANIES.length];
    const topic = TOPICS[Math.floor(i / COMPANIES.length) % TOPICS.length];
    const createdAt = now - span + Math.floor((i / count) * span);
    yield {
      id: id("note"),
      sample: i === Math.floor(count / 2),
      title: `${company} ${topic} call`,
      userWrittenNote: `Notes on ${topic}.`,
      enhancedNote: `## ${topic}\n- point`,
      summary: `We discussed ${topic} with ${company}.`,
      createdAt,
      participants: [0, 1].map((p) => ({
        name: `Person ${p}`,
        email: `person${(i * 7 + p) % 2000}@${company.toLowerCase()}.example`,
        profileImageUrl: "",
        accountName: company,
        accountDomain: `${company.toLowerCase()}.example`,
        accountImageUrl: "",
      })),
      segments: Array.from({ length: 10 }, (_, s) => ({
        position: s,
        speaker: s % 2 ? "Speaker 2" : "Speaker 1",
        text: `Segment ${s} about ${topic} for ${company}.`,
        startSec: s * 30,
        endSec: s * 30 + 29,
      })),
      folderId: i % 5 === 0 ? folders[(i / 5) % folders.length].id : null,
    };
  }
}

export function seed(dbFile, count) {
  const db = new Database(dbFile);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  const ws = db.prepare("SELECT id FROM workspaces ORDER BY created_at LIMIT 1").get().id;
  const user = db.prepare("SELECT user_id FROM members WHERE workspace_id = ? LIMIT 1").get(ws).user_id;
  const now = Date.now();
  const folders = Array.from({ length: 5 }, (_, i) => ({ id: id("fld"), name: `Folder ${i}` }));
  const insFolder = db.prepare(
    "INSERT INTO folders (id, workspace_id, name, icon, color, is_private, parent_folder_id, owner_user_id, created_at, updated_at) VALUES (?, ?, ?, NULL, '#6B7280', 0, NULL, ?, ?, ?)",
  );
  const insNote = db.prepare(
    `INSERT INTO notes (id, workspace_id, created_by, title, kind, status, visibility, user_written_note, enhanced_note, summary, total_duration_sec, participants, calendar_event, input_language, translation_language, meeting_app, processing_error, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'online', 'completed', 'workspace', ?, ?, ?, ?, ?, NULL, 'en', NULL, NULL, NULL, ?, ?)`,
  );
  const insEmail = db.prepare("INSERT INTO note_participant_emails (note_id, email_norm) VALUES (?, ?)");
  const insSeg = db.prepare(
    "INSERT INTO transcript_segments (note_id, position, speaker, text, start_sec, end_sec) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const insLink = db.prepare("INSERT INTO note_folders (note_id, folder_id, note_created_at) VALUES (?, ?, ?)");
  let sampleNoteId = "";
  db.transaction(() => {
    for (const f of folders) insFolder.run(f.id, ws, f.name, user, now, now);
    for (const n of seedNotes(count, folders, now)) {
      if (n.sample) sampleNoteId = n.id;
      insNote.run(
        n.id,
        ws,
        user,
        n.title,
        n.userWrittenNote,
        n.enhancedNote,
        n.summary,
        1800,
        JSON.stringify(n.participants),
        n.createdAt,
        n.createdAt,
      );
      for (const p of n.participants) insEmail.run(n.id, p.email);
      for (const s of n.segments) insSeg.run(n.id, s.position, s.speaker, s.text, s.startSec, s.endSec);
      if (n.folderId) insLink.run(n.id, n.folderId, n.createdAt);
    }
  })();
  // The content and moment indexes, as the notes repository fills them when a note is written.
  db.exec(`
    INSERT INTO notes_fts(rowid, title, body)
      SELECT n.seq, n.title, concat_ws(char(10), nullif(n.user_written_note, ''), nullif(n.summary, ''), nullif(n.enhanced_note, ''),
        (SELECT group_concat(text, char(10)) FROM (SELECT t.text FROM transcript_segments t WHERE t.note_id = n.id ORDER BY t.position)))
      FROM notes n;
    INSERT INTO segments_fts(rowid, text) SELECT (n.seq << 20) + t.position, t.text FROM transcript_segments t JOIN notes n ON n.id = t.note_id;`);
  db.exec("ANALYZE");
  db.close();
  return { workspaceId: ws, folders, sampleNoteId, company: SEARCHED_COMPANY };
}
