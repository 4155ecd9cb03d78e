// notula browse [note-id]: the web app, or one note's page, opened in the browser (gh's
// `browse`); with --no-browser the address is printed instead. It needs no credential:
// the browser signs in on its own.
import type { Command } from "commander";
import { globalDeps, under, type GlobalDeps } from "../../lib/command.js";
import { examples } from "../../lib/help.js";
import { info } from "../../lib/output.js";
import { selectProfile } from "../../lib/profiles.js";
import { openBrowser } from "../../lib/web-login.js";
import { noteUrl } from "../../../shared/note-links.js";

export const define = (program: Command) =>
  examples(
    program
      .command("browse")
      .description("Open the web app, or a note's page, in the browser")
      .argument("[note-id]", "the note to open")
      .option("-n, --no-browser", "print the address instead of opening it"),
    "notula browse",
    "notula browse note_abc",
    "notula browse note_abc --no-browser",
  );

export interface Input {
  noteId?: string;
  browser: boolean;
}

export async function run(f: Input, { globals }: GlobalDeps): Promise<{ url: string }> {
  const { server } = await selectProfile(globals);
  const url = f.noteId ? noteUrl(server, f.noteId) : `${server.replace(/\/+$/, "")}/`;
  if (f.browser) {
    info(`Opening ${url} in your browser.`);
    await openBrowser(url);
  }
  return { url };
}

export const render = (r: { url: string }, f: Input) => {
  if (!f.browser) process.stdout.write(`${r.url}\n`);
};

export const registerBrowse = (program: Command) => under(program, globalDeps, [{ define, run, render }]);
