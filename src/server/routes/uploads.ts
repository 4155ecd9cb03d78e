// PUT presignedUrl: the signature in the URL is the credential, so no API key.
import { createRoute } from "@hono/zod-openapi";
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { z } from "zod";
import type { Services } from "../../services/index.js";
import { ServiceUnavailableError, BadRequestError } from "../../core/errors.js";
import { UploadResult } from "../../shared/schemas/audio.js";
import { newRouter } from "../../http/context.js";
import { errors, ok } from "./v1/openapi-helpers.js";

const binary = { schema: z.string().meta({ format: "binary" }) };

const put = createRoute({
  method: "put",
  path: "/uploads/{id}",
  tags: ["Notes from audio"],
  operationId: "uploadRecording",
  // The URL's signature is the credential: no key is sent, and the document says so.
  security: [],
  summary: "Upload a recording to a presigned URL",
  description:
    "Send the raw file as the body with the Content-Type that generate-upload-url returned. One upload per URL; the URL expires after 10 minutes.",
  request: {
    params: z.object({ id: z.string().max(100) }),
    query: z.object({ expires: z.string().optional(), sig: z.string().optional() }),
    body: { content: { "audio/mp4": binary, "audio/mpeg": binary, "audio/wav": binary, "audio/aac": binary } },
  },
  responses: {
    ...ok(UploadResult),
    400: errors[400],
    403: { description: "Invalid or expired signature.", content: errors[401].content },
    409: {
      description:
        "The URL has made its upload already, or is receiving one at this moment (then with Retry-After: a retry after a cut connection waits for the server to let the cut one go).",
      content: errors[401].content,
    },
    413: { description: "Larger than the upload's size limit.", content: errors[401].content },
    415: {
      description:
        "Content-Type differs from the one the URL was made for, or the file is not a recording (its first bytes are not those of an accepted format).",
      content: errors[401].content,
    },
    503: {
      description: "Too many uploads are being received at once; retry after Retry-After seconds.",
      content: errors[401].content,
    },
    507: {
      description: "The server is out of disk space; nothing was stored, and the URL may be used again.",
      content: errors[401].content,
    },
  },
});

export interface UploadLimits {
  /** Uploads received at once; one more is refused with 503 and Retry-After. */
  maxConcurrent: number;
  /** A body that sends nothing for this long is cut. */
  idleTimeoutMs: number;
}

export function uploadRoutes(services: Services, limits: UploadLimits = { maxConcurrent: 16, idleTimeoutMs: 60_000 }) {
  const app = newRouter();
  let receiving = 0;
  app.openapi(put, async (c) => {
    const { id } = c.req.valid("param");
    const { expires, sig } = c.req.valid("query");
    // Each upload holds a socket, a file and disk bandwidth for as long as the client
    // takes: a bounded number at once, so that a burst cannot starve the API.
    if (receiving >= limits.maxConcurrent) {
      c.header("Connection", "close");
      throw new ServiceUnavailableError(
        `The server is receiving ${limits.maxConcurrent} uploads already; retry shortly.`,
        5,
      );
    }
    // Stream straight from the socket when running on Node's HTTP server. (Touching
    // c.req.raw.body there would start a second reader on the same socket.)
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    let body: Readable;
    if (incoming) {
      body = incoming;
      // A client that stops sending loses its connection (the upload may be sent again).
      incoming.setTimeout(limits.idleTimeoutMs, () =>
        incoming.destroy(new Error(`nothing arrived for ${limits.idleTimeoutMs} ms`)),
      );
    } else if (c.req.raw.body) body = Readable.fromWeb(c.req.raw.body as import("node:stream/web").ReadableStream);
    else throw new BadRequestError("The upload has no body.");
    receiving++;
    try {
      const result = await services.uploads.receive({
        uploadId: id,
        expires,
        sig,
        contentType: c.req.header("content-type"),
        contentLength: c.req.header("content-length"),
        body,
      });
      return c.json(result, 200);
    } catch (err) {
      // Refused before the body was read (a wrong type, say): the rest of it must not be
      // taken for the next request on this connection.
      if (incoming && !incoming.readableEnded) c.header("Connection", "close");
      throw err;
    } finally {
      receiving--;
      incoming?.setTimeout(0);
    }
  });
  return app;
}
