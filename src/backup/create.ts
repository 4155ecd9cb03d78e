// `notula admin backup`: a consistent archive of a single-box installation, taken
// while the server runs. The database is copied with VACUUM INTO, which reads one
// snapshot in a single read transaction (under WAL the server keeps writing, and the
// copy never restarts the way the page-by-page backup API does under steady writes).
// The recordings copied are exactly those the snapshot names, so the archive holds no
// orphans and lacks nothing it refers to, unless a note was deleted mid-backup (counted).
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import * as tar from "tar";
import { openDatabase } from "../db/open.js";
import {
  AUDIO_DIR,
  CONFIG_FILE,
  COUNTED_TABLES,
  DATABASE_FILE,
  MANIFEST,
  SECRET_KEY_FILE,
  sha256Of,
  type Manifest,
} from "./manifest.js";

export interface BackupSource {
  databaseFile: string;
  audioDir: string;
  secretKeyFile: string;
  /** The data dir's config file, kept with the backup when there is one. */
  configFile: string;
}

export interface BackupProgress {
  /** Called as recordings are copied and files checksummed. */
  (phase: "recordings" | "checksums", done: number, total: number): void;
}

/** Links when the archive is on the same disk (instant, no space), copies otherwise. */
function linkOrCopy(from: string, to: string) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.linkSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
  }
}

function snapshotCounts(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    return Object.fromEntries(
      COUNTED_TABLES.map((t) => [t, (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]),
    );
  } finally {
    db.close();
  }
}

function storedRecordings(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      // Uploaded recordings, and live ones once their pieces are joined.
      .prepare(
        "SELECT workspace_id AS w, id, extension AS e FROM audio_uploads WHERE status IN ('uploaded', 'used') " +
          "UNION ALL SELECT workspace_id, id, format FROM recordings WHERE bytes IS NOT NULL",
      )
      .all() as { w: string; id: string; e: string }[];
    return rows.map((r) => `${r.w}/${r.id}.${r.e}`);
  } finally {
    db.close();
  }
}

export async function createBackup(
  source: BackupSource,
  outFile: string,
  progress?: BackupProgress,
): Promise<Manifest> {
  if (!fs.existsSync(source.databaseFile))
    throw new Error(`No database at ${source.databaseFile}: is this a notula data dir?`);
  const out = path.resolve(outFile);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  // Staged beside the archive, so links work and the archive appears whole or not at all.
  const staging = fs.mkdtempSync(path.join(path.dirname(out), ".notula-backup-"));
  try {
    const live = openDatabase(source.databaseFile, { migrate: false });
    try {
      live.sqlite.prepare("VACUUM INTO ?").run(path.join(staging, DATABASE_FILE));
    } finally {
      live.close();
    }
    const recordings = storedRecordings(path.join(staging, DATABASE_FILE));
    let missingRecordings = 0;
    for (const [i, key] of recordings.entries()) {
      const from = path.join(source.audioDir, key);
      if (fs.existsSync(from)) linkOrCopy(from, path.join(staging, AUDIO_DIR, key));
      else missingRecordings++;
      progress?.("recordings", i + 1, recordings.length);
    }
    if (fs.existsSync(source.secretKeyFile)) fs.copyFileSync(source.secretKeyFile, path.join(staging, SECRET_KEY_FILE));
    if (fs.existsSync(source.configFile)) fs.copyFileSync(source.configFile, path.join(staging, CONFIG_FILE));

    const names = [DATABASE_FILE, SECRET_KEY_FILE, CONFIG_FILE].filter((f) => fs.existsSync(path.join(staging, f)));
    names.push(
      ...recordings.filter((k) => fs.existsSync(path.join(staging, AUDIO_DIR, k))).map((k) => `${AUDIO_DIR}/${k}`),
    );
    const files: Manifest["files"] = [];
    for (const [i, name] of names.entries()) {
      const file = path.join(staging, name);
      files.push({ path: name, bytes: fs.statSync(file).size, sha256: await sha256Of(file) });
      progress?.("checksums", i + 1, names.length);
    }
    const manifest: Manifest = {
      format: "notula-backup",
      version: 1,
      createdAt: new Date().toISOString(),
      files,
      counts: snapshotCounts(path.join(staging, DATABASE_FILE)),
      missingRecordings,
    };
    fs.writeFileSync(path.join(staging, MANIFEST), JSON.stringify(manifest, null, 2));
    const partial = `${out}.part`;
    await tar.create({ gzip: true, file: partial, cwd: staging, portable: true }, [MANIFEST, ...names]);
    fs.renameSync(partial, out);
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
