// Asking in the web app: POST /ask from the Ask box (a note's page, the notes list,
// the Ask page, a thread's follow-up). With script the answer streams back as
// server-sent events, as from POST /v1/ask; without, the form posts and the thread's
// page shows the answer. Threads are their asker's alone: another's is not found.
import { Hono } from "hono";
import { streamAnswer } from "../../http/answer-stream.js";
import type { Services } from "../../services/index.js";
import { AskBody } from "../../shared/schemas/ask.js";
import { BadRequestError } from "../../core/errors.js";
import { describeZodError } from "../../shared/describe-zod-error.js";
import { csrfOk, requireViewer, viewerOf, type WebEnv } from "../context.js";
import { formExpired } from "../form-expired.js";
import { render } from "../render.js";
import { AskPage, AskThreadPage } from "../pages/ask.js";

const FIELDS = ["question", "noteId", "threadId", "fromDate", "toDate", "participantEmail"] as const;

export function askPages(services: Services) {
  const app = new Hono<WebEnv>();
  app.use("/ask", requireViewer);
  app.use("/ask/*", requireViewer);

  app.get("/ask", async (c) => {
    const viewer = viewerOf(c);
    return render(c, <AskPage viewer={viewer} threads={await services.ask.threads(viewer.principal)} />);
  });

  app.get("/ask/threads/:id", async (c) => {
    const viewer = viewerOf(c);
    return render(
      c,
      <AskThreadPage viewer={viewer} thread={await services.ask.thread(viewer.principal, c.req.param("id"))} />,
    );
  });

  app.post("/ask", async (c) => {
    const f = await c.req.parseBody({ all: true });
    if (!(await csrfOk(c, f))) return formExpired(c);
    const given: Record<string, unknown> = {};
    for (const k of FIELDS) if (typeof f[k] === "string" && f[k]) given[k] = f[k];
    const folders = [f.folderIds].flat().filter((x): x is string => typeof x === "string" && x !== "");
    if (folders.length) given.folderIds = folders.flatMap((x) => x.split(",")).filter(Boolean);
    const parsed = AskBody.safeParse(given);
    if (!parsed.success) throw new BadRequestError(describeZodError(parsed.error));
    const p = viewerOf(c).principal;
    const answer = await services.ask.start(p, parsed.data);
    if (!(c.req.header("accept") ?? "").includes("text/event-stream")) {
      const done = await answer(undefined, c.req.raw.signal);
      return c.redirect(`/ask/threads/${done.threadId}#latest`, 303);
    }
    return streamAnswer(c, answer);
  });

  app.post("/ask/threads/:id/delete", async (c) => {
    if (!(await csrfOk(c, await c.req.parseBody()))) return formExpired(c);
    await services.ask.deleteThread(viewerOf(c).principal, c.req.param("id"));
    return c.redirect("/ask", 303);
  });
  return app;
}
