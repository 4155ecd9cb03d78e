// A watched folder (`notula serve --watch-dir DIR`): each recording or transcript
// dropped there becomes a note of one person, once. A file is taken only when two looks
// in a row find it the same size and time (it has stopped growing), then claimed by
// moving it into DIR/.notula-processing/HOST (a rename: of two servers watching one
// shared folder, one gets it), made a note of, and moved to DIR/imported or DIR/failed. Each
// outcome is a line of DIR/notula-import.log. A transcript and a recording of the same
// name (standup.vtt, standup.m4a) make one note: the transcript kept, the recording
// attached; a recording alone is transcribed like an upload.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Logger } from "../core/logger.js";
import type { Clock } from "../core/clock.js";
import { SCOPES, type Principal } from "../core/principal.js";
import type { Repositories } from "../db/repos/index.js";
import type { Services } from "../services/index.js";
import { createFileImporter, notesOf, type IncomingFile, type Outcome } from "./import-files.js";
import { isRecording, isTranscript } from "../shared/import/file-kinds.js";

export interface WatchFolderOptions {
  dir: string;
  /** A member's email or user id; default the workspace's first admin. */
  user?: string;
  /** Default: the only workspace. */
  workspace?: string;
}

export interface WatchFolderDeps {
  services: Services;
  repos: Repositories;
  logger: Logger;
  now: Clock;
}

export type { Outcome };

/** Where this host's server moves a file it took, until it is done (and takes back at start). */
const CLAIMED = path.join(".notula-processing", os.hostname().replace(/[^\w.-]/g, "_") || "host");
export const LOG_FILE = "notula-import.log";

const stemOf = (f: string) => path.basename(f, path.extname(f));

export function createFolderWatch(d: WatchFolderDeps, o: WatchFolderOptions) {
  const dir = path.resolve(o.dir);
  /** What the last look found of each file: a file is taken when the next finds it the same. */
  let lastLook = new Map<string, string>();
  let warned = "";

  /** Said once while it lasts (a missing folder, an unknown person), not at every look. */
  const warnOnce = (message: string) => {
    if (warned !== message) d.logger.warn({ dir }, message);
    warned = message;
  };

  async function principal(): Promise<Principal | null> {
    const workspaces = await d.services.workspaces.list();
    const workspace = o.workspace
      ? workspaces.find((w) => w.id === o.workspace)
      : workspaces.length === 1
        ? workspaces[0]
        : undefined;
    if (!workspace) {
      warnOnce(
        o.workspace
          ? `The watched folder's workspace ${o.workspace} does not exist; its files wait.`
          : "The server has several workspaces: name the watched folder's with --watch-workspace; its files wait.",
      );
      return null;
    }
    const named = o.user ?? (await d.services.workspaces.defaultUser(workspace.id));
    const member = named.includes("@")
      ? await d.repos.members.getByEmail(workspace.id, named.toLowerCase())
      : await d.repos.members.getByUser(workspace.id, named);
    if (!member) {
      warnOnce(`${named} is not a member of workspace ${workspace.id}: the watched folder's files wait.`);
      return null;
    }
    return {
      workspaceId: workspace.id,
      userId: member.userId,
      keyId: "watch-folder",
      scopes: new Set(SCOPES),
      plan: workspace.plan,
      role: member.role,
    };
  }

  /** The files that stopped growing since the last look, by name. */
  function settled(): string[] {
    const look = new Map<string, string>();
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!e.isFile() || e.name.startsWith(".") || e.name === LOG_FILE) continue;
      if (!isRecording(e.name) && !isTranscript(e.name)) continue;
      const s = fs.statSync(path.join(dir, e.name), { throwIfNoEntry: false });
      if (s) look.set(e.name, `${s.size}:${s.mtimeMs}`);
    }
    const ready = [...look].filter(([name, seen]) => lastLook.get(name) === seen).map(([name]) => name);
    lastLook = look;
    return ready.sort();
  }

  /** Moves a file into `sub` of the folder, under a name not taken there; its new path. */
  function moveInto(file: string, sub: string): string {
    const to = path.join(dir, sub);
    fs.mkdirSync(to, { recursive: true });
    let target = path.join(to, path.basename(file));
    for (let n = 2; fs.existsSync(target); n++) target = path.join(to, `${stemOf(file)} (${n})${path.extname(file)}`);
    fs.renameSync(file, target);
    return target;
  }

  /** Takes a file for this server: false when another took it first. */
  function claim(name: string): string | null {
    try {
      return moveInto(path.join(dir, name), CLAIMED);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  const importer = createFileImporter(d.services);

  /** A file of the folder, as the importer reads it. */
  const onDisk = (file: string): IncomingFile => {
    const stat = fs.statSync(file);
    return {
      name: path.basename(file),
      size: stat.size,
      modified: stat.mtime,
      path: file,
      bytes: () => fs.promises.readFile(file),
      stream: () => fs.createReadStream(file),
    };
  };

  function record(o: Outcome) {
    const said =
      o.status === "imported"
        ? `imported ${o.file}${o.recording ? ` with ${o.recording}` : ""} as ${o.noteId}`
        : o.status === "skipped"
          ? `skipped ${o.file}: ${o.reason}`
          : `failed ${o.file}: ${o.reason}`;
    fs.appendFileSync(path.join(dir, LOG_FILE), `${new Date(d.now()).toISOString()} ${said}\n`);
    (o.status === "failed" ? d.logger.warn : d.logger.info).call(d.logger, { dir, ...o }, "watched folder");
  }

  /** One look: the files that stopped growing become notes. */
  async function scan(): Promise<Outcome[]> {
    if (!fs.existsSync(dir)) {
      warnOnce(`The watched folder ${dir} does not exist; it is looked for again.`);
      return [];
    }
    const ready = settled();
    if (!ready.length) return [];
    const p = await principal();
    if (!p) return [];
    warned = "";
    const outcomes: Outcome[] = [];
    for (const { main, recording: beside } of notesOf(ready)) {
      const file = claim(main);
      if (!file) continue;
      const besideFile = beside ? claim(beside) : null;
      const outcome = await importer.importFile(p, onDisk(file), besideFile ? onDisk(besideFile) : null);
      const sub = outcome.status === "failed" ? "failed" : "imported";
      moveInto(file, sub);
      if (besideFile) moveInto(besideFile, sub);
      record(outcome);
      outcomes.push(outcome);
    }
    // Nothing left taken: the folder shows only what people put there and what became of it.
    for (const claimed of [path.join(dir, CLAIMED), path.dirname(path.join(dir, CLAIMED))])
      try {
        fs.rmdirSync(claimed);
      } catch {
        // Another server's files are in it, or it is gone already.
      }
    return outcomes;
  }

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  return {
    dir,
    scan,
    /** Looks every `everyMs`, one look at a time, until stopped. */
    start(everyMs: number) {
      // Files left claimed by a server that stopped mid-import are looked at again.
      const claimed = path.join(dir, CLAIMED);
      if (fs.existsSync(claimed) && fs.existsSync(dir))
        for (const f of fs.readdirSync(claimed)) fs.renameSync(path.join(claimed, f), path.join(dir, f));
      const tick = () => {
        running = scan()
          .catch((err) => d.logger.error({ err, dir }, "the watched folder could not be read"))
          .finally(() => {
            if (!stopped) timer = setTimeout(tick, everyMs);
          });
      };
      timer = setTimeout(tick, 0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
