// Pieces on their way to the server: each is written to disk before it is sent and
// removed once the server has acknowledged it (it acknowledges only what it has
// stored), so a dropped connection, or a server restarting, costs nothing: the
// pieces wait on disk and are sent, in order, when it answers again. A piece whose
// answer was lost is sent again; the server keeps one copy.
import fs from "node:fs";
import path from "node:path";
import { CliError, EXIT } from "../../exit.js";

export interface SpooledPiece {
  seq: number;
  durationMs: number;
}

export interface PieceSender {
  /** PUTs one piece; resolves with the HTTP status (and the error message, if any); rejects when the server cannot be reached. */
  (seq: number, body: Buffer, durationMs: number): Promise<{ status: number; message?: string }>;
}

export function createSpool(dir: string, send: PieceSender, onChange: () => void = () => {}) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const queue: SpooledPiece[] = [];
  let sent = 0;
  let failing: string | null = null;
  let fatal: CliError | null = null;
  let running: Promise<void> | null = null;
  const file = (seq: number) => path.join(dir, `${String(seq).padStart(5, "0")}.piece`);

  async function drain() {
    while (queue.length && !fatal) {
      const piece = queue[0];
      let reply: { status: number; message?: string };
      try {
        reply = await send(piece.seq, fs.readFileSync(file(piece.seq)), piece.durationMs);
      } catch (err) {
        // Unreachable: keep the pieces, try again shortly.
        failing = (err as Error).message;
        onChange();
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      if (reply.status === 200) {
        fs.rmSync(file(piece.seq), { force: true });
        queue.shift();
        sent++;
        failing = null;
        onChange();
        continue;
      }
      if (reply.status >= 500 || reply.status === 429) {
        failing = `the server answered ${reply.status}`;
        onChange();
        await new Promise((r) => setTimeout(r, 2000));
        continue;
      }
      // The recording cannot take it (stopped, at its limit, refused): nothing more will go.
      fatal = new CliError(`Piece ${piece.seq} was refused (${reply.status}): ${reply.message ?? ""}`, EXIT.error);
      onChange();
    }
  }

  return {
    /** Keeps a piece on disk and queues it. */
    add(seq: number, body: Buffer, durationMs: number) {
      fs.writeFileSync(file(seq), body);
      queue.push({ seq, durationMs });
      running ??= drain().finally(() => (running = null));
      onChange();
    },
    /** Resolves once every piece has been acknowledged (or one was refused: then it throws). */
    async flush(): Promise<void> {
      while (queue.length && !fatal) {
        running ??= drain().finally(() => (running = null));
        await running;
      }
      if (fatal) throw fatal;
    },
    status: () => ({ sent, waiting: queue.length, failing, fatal: fatal?.message ?? null }),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
