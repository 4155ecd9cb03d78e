// Following a note while it is processed: its stage and, where the server knows it,
// how far the stage has come, on stderr; the note at the end. On a terminal the line
// is rewritten in place; otherwise a line per stage and per tenth of progress.
import type { NoteDto } from "../../shared/schemas/notes.js";
import { CliError, EXIT } from "../exit.js";
import type { Deps } from "./command.js";
import { info, isQuiet, warn } from "./output.js";
import { IN_FLIGHT_STATUSES } from "../../shared/vocabulary.js";

/** Processing has ended: nothing runs or waits for the note (a live recording has not begun it). */
export const processed = (status: NoteDto["status"]) => !IN_FLIGHT_STATUSES.has(status) && status !== "recording";

/** "transcribing 40%", "summarizing", "completed". */
export function describeProgress(note: Pick<NoteDto, "status" | "progress">): string {
  const p = note.progress;
  if (!p) return note.status;
  return p.percent === null ? p.stage : `${p.stage} ${p.percent}%`;
}

/**
 * Polls until the note settles and returns it; a note that failed, or kept its old
 * enhanced note because writing the new one failed, is an error (non-zero exit).
 */
export async function waitForNote(ctx: Pick<Deps, "api" | "waitMs">, id: string, intervalMs = 500): Promise<NoteDto> {
  const waitMs = ctx.waitMs ?? 3600_000;
  const deadline = Date.now() + waitMs;
  const tty = Boolean(process.stderr.isTTY);
  let lastLine = "";
  let lastStage = "";
  let lastTenth = -1;
  const show = (note: NoteDto) => {
    const line = `${id}: ${describeProgress(note)}`;
    if (line === lastLine) return;
    const stage = note.progress?.stage ?? note.status;
    const tenth =
      note.progress?.percent === null || note.progress?.percent === undefined
        ? -1
        : Math.floor(note.progress.percent / 10);
    lastLine = line;
    if (tty && !isQuiet()) {
      process.stderr.write(`\r\x1b[K${line}`);
      if (processed(note.status)) process.stderr.write("\n");
    } else if (stage !== lastStage || tenth !== lastTenth) info(line);
    lastStage = stage;
    lastTenth = tenth;
  };
  for (;;) {
    const { note } = await ctx.api.call("getNote", { params: { id } });
    show(note);
    if (processed(note.status)) {
      // A recording waiting for a speech engine has not failed: its reason says so whole.
      if (note.processingError?.startsWith("Waiting for")) throw new CliError(note.processingError, EXIT.error, note);
      if (note.status === "recorded-not-summarized" || note.processingError)
        throw new CliError(`Processing failed: ${note.processingError ?? "no reason given"}`, EXIT.error, note);
      for (const warning of note.processingWarnings ?? []) warn(`warning: ${warning}`);
      return note;
    }
    if (Date.now() + intervalMs > deadline)
      throw new CliError(
        `${id} is still ${describeProgress(note)} after ${Math.round(waitMs / 1000)} s; follow it again with \`notula notes wait ${id}\`, or wait longer with --wait-timeout.`,
        EXIT.timeout,
        note,
      );
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
