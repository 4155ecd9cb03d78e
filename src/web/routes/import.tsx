// GET and POST /notes/import: the import page, and the files it sends (a form of many
// files; dropped on the page or chosen), each made into a note by the server's file
// importer as the signed-in person. The form's size is bounded before it is read.
import { Readable } from "node:stream";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Services } from "../../services/index.js";
import { createFileImporter, notesOf, type IncomingFile, type Outcome } from "../../pipeline/import-files.js";
import { AUDIO_EXTENSIONS } from "../../shared/vocabulary.js";
import { csrfOk, requireViewer, viewerOf, type WebEnv } from "../context.js";
import { formExpired } from "../form-expired.js";
import { render } from "../render.js";
import { ImportPage } from "../pages/import.js";

/** A whole batch sent from the page: transcripts are small, a recording or two fit. */
export const MAX_IMPORT_FORM_BYTES = 64 * 1024 * 1024;

/** A file of the form, as the importer reads it (its name without any folder a browser sent). */
function fromForm(file: File): IncomingFile {
  let bytes: Promise<Buffer> | undefined;
  const read = () => (bytes ??= file.arrayBuffer().then((b) => Buffer.from(b)));
  return {
    name: file.name.split(/[\\/]/).pop() || "file",
    size: file.size,
    modified: new Date(file.lastModified || Date.now()),
    bytes: read,
    stream: () =>
      Readable.from(
        (async function* () {
          yield await read();
        })(),
      ),
  };
}

export function importPages(services: Services) {
  const app = new Hono<WebEnv>();
  const importer = createFileImporter(services);
  app.use("/notes/import", requireViewer);
  const page = async (c: Parameters<typeof viewerOf>[0], extra: { error?: string; outcomes?: Outcome[] } = {}) =>
    ImportPage({
      viewer: viewerOf(c),
      folders: await services.folders.choices(viewerOf(c).principal),
      maxBytes: MAX_IMPORT_FORM_BYTES,
      extensions: AUDIO_EXTENSIONS,
      ...extra,
    });

  app.get("/notes/import", async (c) => render(c, await page(c)));

  app.post(
    "/notes/import",
    bodyLimit({
      maxSize: MAX_IMPORT_FORM_BYTES,
      onError: async (c) =>
        render(
          c as never,
          await page(c as never, {
            error: "These files are more than the page takes at once: send fewer, or use notula import.",
          }),
          413,
        ),
    }),
    async (c) => {
      const f = await c.req.parseBody({ all: true });
      if (!(await csrfOk(c, f))) return formExpired(c);
      const files = [f.files ?? []].flat().filter((x): x is File => x instanceof File && x.size > 0);
      if (!files.length) return render(c, await page(c, { error: "Choose one or more files to import." }), 400);
      const folderId = typeof f.folderId === "string" && f.folderId ? f.folderId : undefined;
      const byName = new Map(files.map(fromForm).map((x) => [x.name, x]));
      const outcomes: Outcome[] = [];
      for (const { main, recording } of notesOf([...byName.keys()]))
        outcomes.push(
          await importer.importFile(
            viewerOf(c).principal,
            byName.get(main)!,
            recording ? byName.get(recording)! : null,
            {
              folderIds: folderId ? [folderId] : undefined,
            },
          ),
        );
      return render(c, await page(c, { outcomes }));
    },
  );
  return app;
}
