// notula notes reprocess <id>
import type { Command } from "commander";
import type { ApiResponse } from "../../lib/api-types.js";
import type { Deps } from "../../lib/command.js";
import { info } from "../../lib/output.js";

export const define = (notes: Command) =>
  notes.command("reprocess").description("Transcribe and summarize a note again").argument("<id>", "note id");

export const run = (f: { id: string }, { api }: Deps) => api.call("reprocessNote", { params: { id: f.id } });

export const render = ({ note }: ApiResponse<"reprocessNote">) => info(`${note.id} is ${note.status}.`);
