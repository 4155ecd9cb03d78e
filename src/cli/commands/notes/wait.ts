// notula notes wait <id>: follows a note until its processing ends, as --wait does;
// how a script takes up a wait that timed out (exit 5 printed the id, and with --json the note).
import type { Command } from "commander";
import { examples } from "../../lib/help.js";
import type { NoteDto } from "../../../shared/schemas/notes.js";
import type { Deps } from "../../lib/command.js";
import { waitForNote } from "../../lib/wait.js";

export const define = (notes: Command) =>
  examples(
    notes
      .command("wait")
      .description(
        "Follow a note until its processing ends (exit 0 completed, 1 failed, 5 still going after --wait-timeout)",
      )
      .argument("<id>", "note id"),
    "notula notes wait note_… --wait-timeout 7200 --json > note.json",
  );

export const run = (f: { id: string }, deps: Deps) => waitForNote(deps, f.id);

export const render = (note: NoteDto) => process.stdout.write(`${note.id}\n`);
