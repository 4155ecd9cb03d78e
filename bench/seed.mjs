// Seeds a data dir with N notes (participants, transcript segments, folders) straight
// into SQLite, after the server has created the schema and the first workspace.
import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";

const COMPANIES = Array.from({ length: 500 }, (_, i) => `Company${String(i).padStart(3, "0")}`);
const TOPICS = ["budget", "roadmap", "hiring", "pricing", "onboarding", "security review", "renewal", "retro", "launch", "support"];
const id = (p) => `${p}_${randomBytes(12).toString("base64url")}`;

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
  const insSeg = db.prepare("INSERT INTO transcript_segments (note_id, position, speaker, text, start_sec, end_sec) VALUES (?, ?, ?, ?, ?, ?)");
  const insLink = db.prepare("INSERT INTO note_folders (note_id, folder_id, note_created_at) VALUES (?, ?, ?)");
  const span = 2 * 365 * 24 * 3600 * 1000;
  const sampleId = { value: "" };
  db.transaction(() => {
    for (const f of folders) insFolder.run(f.id, ws, f.name, user, now, now);
    for (let i = 0; i < count; i++) {
      const noteId = id("note");
      if (i === Math.floor(count / 2)) sampleId.value = noteId;
      const company = COMPANIES[i % COMPANIES.length];
      const topic = TOPICS[Math.floor(i / COMPANIES.length) % TOPICS.length];
      const createdAt = now - span + Math.floor((i / count) * span);
      const participants = [0, 1].map((p) => ({
        name: `Person ${p}`,
        email: `person${(i * 7 + p) % 2000}@${company.toLowerCase()}.example`,
        profileImageUrl: "",
        accountName: company,
        accountDomain: `${company.toLowerCase()}.example`,
        accountImageUrl: "",
      }));
      insNote.run(noteId, ws, user, `${company} ${topic} call`, `Notes on ${topic}.`, `## ${topic}\n- point`, `We discussed ${topic} with ${company}.`, 1800, JSON.stringify(participants), createdAt, createdAt);
      for (const p of participants) insEmail.run(noteId, p.email);
      for (let s = 0; s < 10; s++) insSeg.run(noteId, s, s % 2 ? "Speaker 2" : "Speaker 1", `Segment ${s} about ${topic} for ${company}.`, s * 30, s * 30 + 29);
      if (i % 5 === 0) insLink.run(noteId, folders[(i / 5) % folders.length].id, createdAt);
    }
  })();
  db.exec("ANALYZE");
  db.close();
  return { workspaceId: ws, folders, sampleNoteId: sampleId.value, company: COMPANIES[123] };
}
