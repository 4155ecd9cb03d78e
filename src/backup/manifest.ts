// What a backup archive holds and how it is checked: a manifest listing every file
// with its size and SHA-256, and the counts of what the database snapshot contains,
// so that a restore can prove it has everything and nothing altered.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { z } from "zod";

export const MANIFEST = "manifest.json";
export const DATABASE_FILE = "notula.db";
export const SECRET_KEY_FILE = "secret.key";
export const CONFIG_FILE = "config.json";
export const AUDIO_DIR = "audio";

export const manifestSchema = z.object({
  format: z.literal("notula-backup"),
  version: z.literal(1),
  createdAt: z.string(),
  files: z.array(
    z.object({ path: z.string().min(1), bytes: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  ),
  /** Rows in the snapshot, for the restore (and the operator) to check against. */
  counts: z.record(z.string(), z.number().int().min(0)),
  /** Recordings the snapshot names whose file was deleted before it could be copied (a note deleted during the backup). */
  missingRecordings: z.number().int().min(0),
});
export type Manifest = z.infer<typeof manifestSchema>;

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

/** The tables whose row counts a backup records: what an operator would miss. */
export const COUNTED_TABLES = [
  "workspaces",
  "users",
  "members",
  "api_keys",
  "notes",
  "transcript_segments",
  "folders",
  "webhooks",
  "templates",
  "audio_uploads",
  "recordings",
] as const;
