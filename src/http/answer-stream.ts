// An answer as server-sent events, for POST /v1/ask and the web app's Ask box alike:
// `queued` events while a local model answers others first (how many are ahead),
// `text` events with pieces as they are written, then `done` with the whole answer
// (after `error` when the model failed mid-answer). Past the headers a failure can
// only be said in the stream, so it is.
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { publicErrorMessage } from "../core/error-message.js";
import type { AskAnswerDto } from "../shared/schemas/ask.js";

export type Answering = (
  onText?: (text: string) => void,
  signal?: AbortSignal,
  onQueued?: (ahead: number) => void,
) => Promise<AskAnswerDto>;

export function streamAnswer(c: Context, answer: Answering) {
  return streamSSE(c, async (stream) => {
    const pending: Promise<void>[] = [];
    try {
      const done = await answer(
        (text) => void pending.push(stream.writeSSE({ event: "text", data: JSON.stringify({ text }) })),
        c.req.raw.signal,
        (ahead) => void pending.push(stream.writeSSE({ event: "queued", data: JSON.stringify({ ahead }) })),
      );
      await Promise.all(pending);
      if (done.error) await stream.writeSSE({ event: "error", data: JSON.stringify({ message: done.error }) });
      await stream.writeSSE({ event: "done", data: JSON.stringify(done) });
    } catch (err) {
      await Promise.all(pending);
      if (!c.req.raw.signal.aborted)
        await stream.writeSSE({ event: "error", data: JSON.stringify({ message: publicErrorMessage(err) }) });
    }
  });
}
