// Seeds a PostgreSQL database with the notes bench/seed.mjs writes into SQLite
// (after the server has created the schema and the first workspace), in batched
// multi-row inserts, then fills the content search rows in one statement.
import pg from "pg";
import { randomBytes } from "node:crypto";
import { SEARCHED_COMPANY, seedNotes } from "./seed.mjs";

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
    const user = (await client.query("SELECT user_id FROM members WHERE workspace_id = $1 LIMIT 1", [ws])).rows[0]
      .user_id;
    const now = Date.now();
    const folders = Array.from({ length: 5 }, (_, i) => ({ id: id("fld"), name: `Folder ${i}` }));
    await insertRows(
      client,
      "folders",
      ["id", "workspace_id", "name", "color", "is_private", "owner_user_id", "created_at", "updated_at"],
      folders.map((f) => [f.id, ws, f.name, "#6B7280", false, user, now, now]),
    );
    let sampleNoteId = "";
    const notes = [],
      emails = [],
      segments = [],
      links = [];
    for (const n of seedNotes(count, folders, now)) {
      if (n.sample) sampleNoteId = n.id;
      notes.push([
        n.id,
        ws,
        user,
        n.title,
        "online",
        "completed",
        "workspace",
        n.userWrittenNote,
        n.enhancedNote,
        n.summary,
        1800,
        JSON.stringify(n.participants),
        "en",
        n.createdAt,
        n.createdAt,
      ]);
      for (const p of n.participants) emails.push([n.id, p.email]);
      for (const s of n.segments) segments.push([n.id, s.position, s.speaker, s.text, s.startSec, s.endSec]);
      if (n.folderId) links.push([n.id, n.folderId, n.createdAt]);
    }
    await client.query("BEGIN");
    await insertRows(
      client,
      "notes",
      [
        "id",
        "workspace_id",
        "created_by",
        "title",
        "kind",
        "status",
        "visibility",
        "user_written_note",
        "enhanced_note",
        "summary",
        "total_duration_sec",
        "participants",
        "input_language",
        "created_at",
        "updated_at",
      ],
      notes,
    );
    await insertRows(client, "note_participant_emails", ["note_id", "email_norm"], emails);
    await insertRows(
      client,
      "transcript_segments",
      ["note_id", "position", "speaker", "text", "start_sec", "end_sec"],
      segments,
    );
    await insertRows(client, "note_folders", ["note_id", "folder_id", "note_created_at"], links);
    await client.query(`
      INSERT INTO notes_search (note_seq, title, body)
      SELECT n.seq, n.title, concat_ws(E'\\n', nullif(n.user_written_note, ''), nullif(n.summary, ''), nullif(n.enhanced_note, ''),
             (SELECT string_agg(t.text, E'\\n' ORDER BY t.position) FROM transcript_segments t WHERE t.note_id = n.id))
      FROM notes n ON CONFLICT (note_seq) DO NOTHING`);
    await client.query("COMMIT");
    // What autovacuum does soon after a load this size: statistics, and the GIN
    // indexes' pending entries merged (the bulk insert left them in pending lists).
    await client.query("VACUUM ANALYZE");
    return { workspaceId: ws, folders, sampleNoteId, company: SEARCHED_COMPANY };
  } finally {
    await client.end();
  }
}
