// POST /v1/ask and the asker's threads. The answer streams as server-sent events
// (`text` pieces, then `done` with the whole answer and its citations, after an
// `error` when the model failed mid-answer); with Accept: application/json it comes
// once. A bad request is refused before any stream starts.
import { streamAnswer } from "../../../http/answer-stream.js";
import type { Services } from "../../../services/index.js";
import { IdParam, SuccessMessage } from "../../../shared/schemas/common.js";
import { AskAnswer, AskBody, AskThreadEnvelope, AskThreadList } from "../../../shared/schemas/ask.js";
import { newRouter } from "../../../http/context.js";
import { common, errors, extension, jsonBody, ok, routesFor } from "./openapi-helpers.js";

const route = routesFor(["Ask"], { scope: "notes" });

const ask = route("ask", {
  ...extension,
  summary: "Ask your meetings (extension)",
  description:
    "Answers a question from the moments search finds in the meetings the caller may see (or in one note), citing them. Streams `text/event-stream` by default: `text` events carry pieces of the answer as it is written, then one `done` event carries the whole AskAnswer (after an `error` event when the model failed mid-answer; what streamed is kept). With `Accept: application/json` the AskAnswer comes once. Nothing relevant found: `found` is false, the answer says what was searched, and no model is asked. Each question is kept in a thread of the caller's own; give `threadId` for a follow-up.",
  request: { body: jsonBody(AskBody) },
  responses: {
    200: {
      description: "The answer: streamed, or once as JSON.",
      content: { "application/json": { schema: AskAnswer }, "text/event-stream": { schema: AskAnswer } },
    },
    400: errors[400],
    404: errors[404],
    413: errors[413],
    415: errors[415],
    504: errors[504],
    ...common,
  },
});

const listThreads = route("listAskThreads", {
  ...extension,
  summary: "Your threads of questions (extension)",
  responses: { ...ok(AskThreadList), ...common },
});

const getThread = route("getAskThread", {
  ...extension,
  summary: "One of your threads, with its questions and answers (extension)",
  request: { params: IdParam },
  responses: { ...ok(AskThreadEnvelope), 404: errors[404], ...common },
});

const deleteThread = route("deleteAskThread", {
  ...extension,
  summary: "Delete one of your threads (extension)",
  request: { params: IdParam },
  responses: { ...ok(SuccessMessage), 404: errors[404], ...common },
});

export function askRoutes(services: Services) {
  const app = newRouter();
  app.openapi(ask, async (c) => {
    const answer = await services.ask.start(c.get("principal"), c.req.valid("json"));
    if (
      /application\/json/.test(c.req.header("accept") ?? "") &&
      !/text\/event-stream/.test(c.req.header("accept") ?? "")
    )
      return c.json(await services.ask.once(answer, c.req.raw.signal), 200);
    return streamAnswer(c, answer) as never;
  });
  app.openapi(listThreads, async (c) => c.json({ threads: await services.ask.threads(c.get("principal")) }, 200));
  app.openapi(getThread, async (c) =>
    c.json({ thread: await services.ask.thread(c.get("principal"), c.req.valid("param").id) }, 200),
  );
  app.openapi(deleteThread, async (c) => {
    await services.ask.deleteThread(c.get("principal"), c.req.valid("param").id);
    return c.json({ success: true, message: "The thread was deleted." }, 200);
  });
  return app;
}

/** The route definitions by endpoint name: the typed API client reads its types from these. */
export const askRouteDefs = {
  ask,
  listAskThreads: listThreads,
  getAskThread: getThread,
  deleteAskThread: deleteThread,
};
