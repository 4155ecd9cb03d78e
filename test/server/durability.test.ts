// kill -9 of the server while writes are in flight: every write that was
// acknowledged (200) is there after a restart, whole, and the database is sound.
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/http.js";
import { startServerProcess, type ProcessTestServer } from "../helpers/server.js";

let server: ProcessTestServer;
beforeAll(async () => {
  server = await startServerProcess({ args: ["--no-rate-limit"] });
});
afterAll(() => server?.stop());

function noteBody(i: number) {
  return {
    title: `durable ${i}`,
    participants: [{ name: `p${i}`, email: `p${i}@example.com` }],
    transcripts: Array.from({ length: 20 }, (_, j) => ({
      speaker: "S",
      text: `line ${i}.${j}`,
      startTimestamp: "00:00",
      endTimestamp: "00:01",
    })),
    summary: `summary ${i}`,
  };
}

describe("kill -9 loses no acknowledged write", () => {
  for (const round of [1, 2, 3]) {
    it(`round ${round}: creates and updates in flight when the process is killed`, async () => {
      const api = client(server.url, server.key);
      const acknowledged = new Map<string, number>();
      const updated = new Map<string, string>();
      let stop = false;
      let n = 0;
      const writer = async () => {
        while (!stop) {
          const i = n++;
          try {
            const r = await api("POST", "/v1/notes", noteBody(i));
            if (r.status === 200) {
              acknowledged.set(r.body.note.id, i);
              const u = await api("PATCH", `/v1/notes/${r.body.note.id}`, { userWrittenNote: `edit ${i}` });
              if (u.status === 200) updated.set(r.body.note.id, `edit ${i}`);
            }
          } catch {
            // The connection died with the server: that write was never acknowledged.
          }
        }
      };
      const writers = Array.from({ length: 6 }, writer);
      // Kill once writes are flowing (a loaded machine, or PostgreSQL, may take a while
      // for the first), at a different moment each round.
      for (const deadline = Date.now() + 15_000; acknowledged.size < 3 && Date.now() < deadline;)
        await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, round * 120));
      await server.kill9();
      stop = true;
      await Promise.all(writers);
      expect(acknowledged.size).toBeGreaterThan(0);

      const db = new Database(`${server.dataDir}/notula.db`);
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      db.close();

      await server.restart();
      const after = client(server.url, server.key);
      for (const [id, i] of acknowledged) {
        const r = await after("GET", `/v1/notes/${id}`);
        expect(r.status, id).toBe(200);
        expect(r.body.note.title).toBe(`durable ${i}`);
        expect(r.body.note.transcripts).toHaveLength(20);
        expect(r.body.note.participants).toHaveLength(1);
        expect(r.body.note.summary).toBe(`summary ${i}`);
        if (updated.has(id)) expect(r.body.note.userWrittenNote).toBe(updated.get(id));
      }
      // Nothing half-written: every stored note of this round has all its parts.
      const all = await after("GET", "/v1/notes?limit=100&search=durable");
      for (const item of all.body.items) expect(item.participants).toHaveLength(1);
    });
  }
});
