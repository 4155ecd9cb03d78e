// Seeds a PostgreSQL database with the same notes bench/seed.mjs writes into SQLite
// (after the server has created the schema and the first workspace), in batched
// multi-row inserts, then fills the content search rows in one statement.
import pg from "pg";
import { randomBytes } from "node:crypto";

const COMPANIES = Array.from({ length: 500 }, (_, i) => `Company${String(i).padStart(3, "0")}`);
const TOPICS = ["budget", "roadmap", "hiring", "pricing", "onboarding", "security review", "renewal", "retro", "launch", "support"];
const id = (p) => `${p}_${randomBytes(12).toString("base64url")}`;

async function insertRows(client, table, columns, rows) {
  for (let i = 0; i < rows.length; i += 1000) {
    const batch = rows.slice(i, i + 1000);
    const params = [];
    const values = batch.map((row) => `(${row.map((v) => (params.push(v), `$${params.length}`)).join(", ")})`);
    await client.query(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${values.join(", ")}`, params);
  }
}

export async function seedPostgres(url, count) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const ws = (await client.query("SELECT id FROM workspaces ORDER BY created_at LIMIT 1")).rows[0].id;
    const user = (await client.query("SELECT user_id FROM members WHERE workspace_id = $1 LIMIT 1", [ws])).rows[0].user_id;
    const now = Date.now();
    const folders = Array.from({ length: 5 }, (_, i) => ({ id: id("fld"), name: `Folder ${i}` }));
    await insertRows(client, "folders", ["id", "workspace_id", "name", "color", "is_private", "owner_user_id", "created_at", "updated_at"], folders.map((f) => [f.id, ws, f.name, "#6B7280", false, user, now, now]));
    const span = 2 * 365 * 24 * 3600 * 1000;
    let sampleNoteId = "";
    const notes = [], emails = [], segments = [], links = [];
    for (let i = 0; i < count; i++) {
      const noteId = id("note");
      if (i === Math.floor(count / 2)) sampleNoteId = noteId;
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
      notes.push([noteId, ws, user, `${company} ${topic} call`, "online", "completed", "workspace", `Notes on ${topic}.`, `## ${topic}\n- point`, `We discussed ${topic} with ${company}.`, 1800, JSON.stringify(participants), "en", createdAt, createdAt]);
      for (const p of participants) emails.push([noteId, p.email]);
      for (let s = 0; s < 10; s++) segments.push([noteId, s, s % 2 ? "Speaker 2" : "Speaker 1", `Segment ${s} about ${topic} for ${company}.`, s * 30, s * 30 + 29]);
      if (i % 5 === 0) links.push([noteId, folders[(i / 5) % folders.length].id, createdAt]);
    }
    await client.query("BEGIN");
    await insertRows(client, "notes", ["id", "workspace_id", "created_by", "title", "kind", "status", "visibility", "user_written_note", "enhanced_note", "summary", "total_duration_sec", "participants", "input_language", "created_at", "updated_at"], notes);
    await insertRows(client, "note_participant_emails", ["note_id", "email_norm"], emails);
    await insertRows(client, "transcript_segments", ["note_id", "position", "speaker", "text", "start_sec", "end_sec"], segments);
    await insertRows(client, "note_folders", ["note_id", "folder_id", "note_created_at"], links);
    await client.query(`
      INSERT INTO notes_search (note_seq, title, body)
      SELECT n.seq, n.title, concat_ws(E'\\n', nullif(n.user_written_note, ''), nullif(n.summary, ''), nullif(n.enhanced_note, ''),
             (SELECT string_agg(t.text, E'\\n' ORDER BY t.position) FROM transcript_segments t WHERE t.note_id = n.id))
      FROM notes n ON CONFLICT (note_seq) DO NOTHING`);
    await client.query("COMMIT");
    await client.query("ANALYZE");
    return { workspaceId: ws, folders, sampleNoteId, company: COMPANIES[123] };
  } finally {
    await client.end();
  }
}
