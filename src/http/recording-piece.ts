// Receiving a piece of a live recording, for the REST route and the web app's alike:
// the body is read as a stream straight from the socket on Node's HTTP server (reading
// the fetch body there would start a second reader on the same socket), and a piece
// refused before its body was read closes the connection, so the rest of it is never
// taken for the next request.
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import type { Context } from "hono";
import { BadRequestError } from "../core/errors.js";

/** The piece's bytes as a stream, wherever the request came from. */
function pieceBody(c: Context): { body: Readable; incoming?: IncomingMessage } {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming) return { body: incoming, incoming };
  if (!c.req.raw.body) throw new BadRequestError("The piece has no body.");
  return { body: Readable.fromWeb(c.req.raw.body as import("node:stream/web").ReadableStream) };
}

/** Stores the request's body as a piece through `store`, with its declared length. */
export async function receivePiece<T>(
  c: Context,
  store: (body: Readable, contentLength: string | undefined) => Promise<T>,
): Promise<T> {
  const { body, incoming } = pieceBody(c);
  try {
    return await store(body, c.req.header("content-length"));
  } catch (err) {
    if (incoming && !incoming.readableEnded) c.header("Connection", "close");
    throw err;
  }
}
