// PostgreSQL with pgvector, in this process: PGlite (PostgreSQL compiled to WebAssembly,
// with the pgvector extension) behind its wire-protocol socket server, so that the
// product connects to it as to any PostgreSQL server. Debian's PostgreSQL has no
// pgvector package; this is where the HNSW path runs in the tests.
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { freePort } from "./free-port.js";

export interface PgliteServer {
  url: string;
  stop(): Promise<void>;
}

export async function startPglite(): Promise<PgliteServer> {
  const db = await PGlite.create({ extensions: { vector } });
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, port, host: "127.0.0.1", maxConnections: 20 });
  await server.start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
