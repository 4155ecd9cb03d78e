// Following a note while it is processed: each status change on stderr, the note at the end.
import type { NoteDto } from "../../shared/schemas/notes.js";
import { CliError } from "../exit.js";
import type { CommandContext } from "./context.js";
import { info } from "./output.js";

const SETTLED = ["completed", "recorded-not-summarized"];

/**
 * Polls until the note settles and returns it; a note that failed, or kept its old
 * enhanced note because writing the new one failed, is an error (non-zero exit).
 */
export async function waitForNote(ctx: CommandContext, id: string, intervalMs = 1000): Promise<NoteDto> {
  let last = "";
  for (;;) {
    const { note } = await ctx.api.call("getNote", { params: { id } });
    if (note.status !== last) {
      info(`${id}: ${note.status}`);
      last = note.status;
    }
    if (SETTLED.includes(note.status)) {
      if (note.status !== "completed" || note.processingError) throw new CliError(`Processing failed: ${note.processingError ?? "no reason given"}`);
      for (const warning of note.processingWarnings ?? []) info(`warning: ${warning}`);
      return note;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
