// `notula admin restore`: unpacks a backup beside the target, checks every file
// against the manifest (size and SHA-256, nothing missing, nothing extra) and the
// database against its recorded counts, and only then moves it into the data dir.
// A damaged or altered archive leaves the target as it was.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import * as tar from "tar";
import { lockDataDir } from "../storage/data-dir-lock.js";
import { DATABASE_FILE, MANIFEST, manifestSchema, sha256Of, type Manifest } from "./manifest.js";

export class RestoreError extends Error {}

function listFiles(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(full, base) : [path.relative(base, full).split(path.sep).join("/")];
  });
}

async function verify(staging: string): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(staging, MANIFEST), "utf8")));
  } catch {
    throw new RestoreError("The archive has no valid manifest: it is not a notula backup, or it is damaged.");
  }
  const listed = new Map(manifest.files.map((f) => [f.path, f]));
  for (const name of listFiles(staging))
    if (name !== MANIFEST && !listed.has(name))
      throw new RestoreError(`The archive holds ${name}, which its manifest does not list: refusing it.`);
  for (const f of manifest.files) {
    const file = path.join(staging, f.path);
    if (!fs.existsSync(file)) throw new RestoreError(`The archive lacks ${f.path}, which its manifest lists.`);
    if (fs.statSync(file).size !== f.bytes || (await sha256Of(file)) !== f.sha256)
      throw new RestoreError(`${f.path} does not match its checksum: the archive is damaged or altered.`);
  }
  const db = new Database(path.join(staging, DATABASE_FILE), { readonly: true });
  try {
    const integrity = db.pragma("integrity_check", { simple: true });
    if (integrity !== "ok")
      throw new RestoreError(`The database in the archive fails its integrity check: ${String(integrity)}`);
    for (const [table, n] of Object.entries(manifest.counts)) {
      const found = (db.prepare(`SELECT count(*) AS n FROM "${table.replace(/"/g, "")}"`).get() as { n: number }).n;
      if (found !== n)
        throw new RestoreError(`The archive's ${table} holds ${found} rows where the manifest says ${n}.`);
    }
  } finally {
    db.close();
  }
  return manifest;
}

export async function restoreBackup(
  archive: string,
  dataDir: string,
  opts: { force?: boolean } = {},
): Promise<Manifest> {
  if (!fs.existsSync(archive)) throw new RestoreError(`No archive at ${archive}.`);
  const target = path.resolve(dataDir);
  const occupied = fs.existsSync(target) && fs.readdirSync(target).length > 0;
  if (occupied && !opts.force)
    throw new RestoreError(
      `${target} is not empty: restore into an empty directory, or pass --force to replace what is there.`,
    );
  fs.mkdirSync(target, { recursive: true });
  // Refused while a server runs on the directory; held until the files are in place.
  const lock = lockDataDir(target, "notula admin restore");
  const staging = fs.mkdtempSync(path.join(path.dirname(target), ".notula-restore-"));
  try {
    try {
      await tar.extract({ file: archive, cwd: staging, strict: true });
    } catch (err) {
      throw new RestoreError(`The archive cannot be read: ${(err as Error).message}`);
    }
    const manifest = await verify(staging);
    for (const entry of fs.readdirSync(target))
      if (entry !== "notula.lock") fs.rmSync(path.join(target, entry), { recursive: true, force: true });
    for (const entry of fs.readdirSync(staging))
      if (entry !== MANIFEST) fs.renameSync(path.join(staging, entry), path.join(target, entry));
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    lock.release();
  }
}
