// notula notes sync <dir>: a folder of markdown (an Obsidian vault) kept in step with the
// notes, once or, with --watch, until stopped (vault.ts does the work).
import type { Command } from "commander";
import { CliError, EXIT } from "../../exit.js";
import type { Deps } from "../../lib/command.js";
import { info, printTable, warn } from "../../lib/output.js";
import { listOptions, type ListFlags } from "./filters.js";
import { syncVault, type SyncItem } from "./vault.js";

export const define = (notes: Command) =>
  listOptions(
    notes
      .command("sync")
      .description(
        "Keep a folder of markdown in step with the notes (an Obsidian vault): writes what changed, moves renamed notes, removes deleted ones",
      )
      .argument("<dir>", "the folder; a directory per notula folder is made in it"),
  )
    .option("--wiki-links", "participants as [[wiki links]] to a page per person")
    .option("--watch", "keep syncing until stopped (Ctrl-C)")
    .option("--interval <seconds>", "with --watch, how often to look for changes (default 30)")
    .addHelpText(
      "after",
      "\nA file edited in the folder is never overwritten or removed: it is kept, and said.\n\nExamples:\n  notula notes sync ~/Obsidian/Meetings\n  notula notes sync ~/Obsidian/Meetings --wiki-links --watch\n  notula notes sync ./board --folder fld_abc --json",
    );

export interface Input extends ListFlags {
  dir: string;
  wikiLinks?: boolean;
  watch?: boolean;
  interval?: string;
}

export function validate(f: Input) {
  if (f.interval !== undefined) {
    if (!f.watch) throw new CliError("--interval is for --watch.", EXIT.usage);
    const n = Number(f.interval);
    if (!Number.isInteger(n) || n < 1 || n > 86_400)
      throw new CliError(`--interval: whole seconds from 1 to 86400; got "${f.interval}".`, EXIT.usage);
  }
}

const CHANGES: SyncItem["status"][] = ["written", "moved", "removed", "kept"];

/** One pass, or (--watch) a pass every interval, each round's changes printed as it ends. */
export async function run(f: Input, deps: Deps): Promise<{ items: SyncItem[] }> {
  validate(f);
  const options = { dir: f.dir, filters: f, wikiLinks: Boolean(f.wikiLinks) };
  if (!f.watch) return { items: await syncVault(deps, options) };
  const every = Number(f.interval ?? 30) * 1000;
  info(`Keeping ${f.dir} in step with ${deps.server}, every ${every / 1000} s; Ctrl-C to stop.`);
  for (;;) {
    try {
      const changed = (await syncVault(deps, options)).filter((x) => x.status !== "unchanged");
      if (changed.length) report({ items: changed }, deps);
    } catch (err) {
      // The server restarting, or gone a while: the next round tries again.
      if (err instanceof CliError && err.code === EXIT.usage) throw err;
      warn(`${(err as Error).message} (trying again in ${every / 1000} s)`);
    }
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

/** Under --json, each round as one line: a watcher's output is read as it comes. */
function report(r: { items: SyncItem[] }, deps: Deps) {
  if (deps.json) process.stdout.write(JSON.stringify(r) + "\n");
  else render(r);
}

export const ownsOutput = true;

export function render(r: { items: SyncItem[] }, _f?: Input, deps?: Deps) {
  if (deps?.json) return report(r, deps);
  const changed = r.items.filter((x) => x.status !== "unchanged");
  if (changed.length)
    printTable(
      ["STATUS", "NOTE", "FILE", "WHY"],
      changed.map((x) => [x.status, x.noteId, x.file, x.status === "moved" ? `from ${x.reason}` : (x.reason ?? "")]),
    );
  const count = (s: SyncItem["status"]) => r.items.filter((x) => x.status === s).length;
  info(
    CHANGES.map((s) => `${count(s)} ${s}`)
      .concat(`${count("unchanged")} unchanged`)
      .join(", ") + ".",
  );
}
