// A note's recording as the player asks for it: whole, or the byte range it seeks to
// (206, or 416 for a range past its end), streamed from the audio store; cached by that
// browser alone (never on the way: a share link stopped must stop playing).
import type { Context } from "hono";
import { stream } from "hono/streaming";
import type { AudioStore } from "../../storage/audio-store.js";

export async function audioResponse(
  c: Context,
  store: AudioStore,
  rec: { key: string; contentType: string } | null,
): Promise<Response> {
  const size = rec ? await store.size(rec.key) : null;
  if (!rec || size === null) return c.text("This note has no recording.", 404);
  c.header("Accept-Ranges", "bytes");
  c.header("Content-Type", rec.contentType);
  c.header("Cache-Control", "private, max-age=3600");
  const m = /^bytes=(\d*)-(\d*)$/.exec(c.req.header("range") ?? "");
  let start = 0;
  let end = size - 1;
  if (m && (m[1] || m[2])) {
    start = m[1] ? Number(m[1]) : Math.max(0, size - Number(m[2]));
    end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
    if (start > end || start >= size) {
      c.header("Content-Range", `bytes */${size}`);
      return c.body(null, 416);
    }
    c.status(206);
    c.header("Content-Range", `bytes ${start}-${end}/${size}`);
  }
  c.header("Content-Length", String(end - start + 1));
  return stream(c, async (out) => {
    for await (const chunk of store.read(rec.key, { start, end })) await out.write(chunk as Uint8Array);
  });
}
