// PUT presignedUrl: the signature in the URL is the credential, so no API key.
import { createRoute } from "@hono/zod-openapi";
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { z } from "zod";
import type { Services } from "../../services/index.js";
import { BadRequestError } from "../../core/errors.js";
import { UploadResult } from "../../shared/schemas/audio.js";
import { newRouter } from "../context.js";
import { errors, ok } from "./v1/openapi-helpers.js";

const binary = { schema: z.string().meta({ format: "binary" }) };

const put = createRoute({
  method: "put",
  path: "/uploads/{id}",
  tags: ["Notes from audio"],
  summary: "Upload a recording to a presigned URL",
  description: "Send the raw file as the body with the Content-Type that generate-upload-url returned. One upload per URL; the URL expires after 10 minutes.",
  request: {
    params: z.object({ id: z.string().max(100) }),
    query: z.object({ expires: z.string().optional(), sig: z.string().optional() }),
    body: { content: { "audio/mp4": binary, "audio/mpeg": binary, "audio/wav": binary, "audio/aac": binary } },
  },
  responses: {
    ...ok(UploadResult),
    400: errors[400],
    403: { description: "Invalid or expired signature.", content: errors[401].content },
    409: errors[409],
    413: { description: "Larger than the upload's size limit.", content: errors[401].content },
    415: { description: "Content-Type differs from the one the URL was made for.", content: errors[401].content },
  },
});

export function uploadRoutes(services: Services) {
  const app = newRouter();
  app.openapi(put, async (c) => {
    const { id } = c.req.valid("param");
    const { expires, sig } = c.req.valid("query");
    // Stream straight from the socket when running on Node's HTTP server. (Touching
    // c.req.raw.body there would start a second reader on the same socket.)
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    let body: Readable;
    if (incoming) body = incoming;
    else if (c.req.raw.body) body = Readable.fromWeb(c.req.raw.body as import("node:stream/web").ReadableStream);
    else throw new BadRequestError("The upload has no body.");
    const result = await services.uploads.receive({
      uploadId: id,
      expires,
      sig,
      contentType: c.req.header("content-type"),
      contentLength: c.req.header("content-length"),
      body,
    });
    return c.json(result, 200);
  });
  return app;
}
