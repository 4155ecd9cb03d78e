// A meeting recorded with a language model: while it is recorded the model reads the
// parts its transcript has finished; once it stops, the note asks the model only for
// what is new, and is the note the model writes of the whole recording read again.
// Against local stand-ins of an OpenAI-compatible speech server and chat server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bursts, oggPieces } from "../helpers/audio.js";
import { waitForStatus } from "../helpers/flow.js";
import { client } from "../helpers/http.js";
import { startServer, storeQuery, tempDir, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/until.js";
import { startChatServer, startTranscriptionServer, type VendorServer } from "../helpers/vendors.js";

const work = tempDir("notula-read-ahead-");
let server: TestServer;
let stt: VendorServer;
let llm: VendorServer;

beforeAll(async () => {
  // Long lines and a small context: a part is a line.
  stt = await startTranscriptionServer({ echo: true, echoPad: 14 });
  llm = await startChatServer();
  server = await startServer({
    args: ["--no-rate-limit", "--stt-url", stt.url, "--llm-url", llm.url, "--llm-model", "test-model"],
    env: { NOTULA_LLM_CONTEXT_TOKENS: "1024" },
  });
});
afterAll(async () => {
  await server?.stop();
  await stt?.close();
  await llm?.close();
});

const systemOf = (c: VendorServer["calls"][number]) => c.body.messages[0].content as string;
const userOf = (c: VendorServer["calls"][number]) => c.body.messages[1].content as string;
const maps = (calls: VendorServer["calls"]) => calls.filter((c) => /Summarize this part/.test(systemOf(c)));

describe("a meeting read ahead while it is recorded", () => {
  it("has its finished parts read before it stops, and after it only the rest", async () => {
    const api = client(server.url, server.key);
    const { pieces, durationMs } = oggPieces(await bursts(work, 90, "wav"), 18);
    const noteId = (await api("POST", "/v1/recordings", { format: "ogg", title: "Planning call" })).body.note.id;
    for (let seq = 0; seq < pieces.length; seq++) {
      const put = await fetch(`${server.url}/v1/recordings/${noteId}/pieces/${seq}?durationMs=${durationMs}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${server.key}`, "content-type": "audio/ogg" },
        body: pieces[seq],
      });
      expect(put.status).toBe(200);
    }
    // Still recording, the model has read parts of it, and they are kept.
    const kept = (): Promise<number> =>
      storeQuery<{ n: number }>(
        server.dataDir,
        "SELECT count(*) AS n FROM summary_parts WHERE note_id = ?",
        noteId,
      ).then((r) => Number(r[0].n));
    await until(
      "parts read while recording",
      async () => {
        const note = (await api("GET", `/v1/notes/${noteId}`)).body.note;
        return note.status === "recording" && maps(llm.calls).length >= 2 && (await kept()) >= 2;
      },
      120_000,
      200,
    );
    const readBefore = maps(llm.calls).map(userOf);
    expect(readBefore.length).toBeGreaterThanOrEqual(2);

    expect((await api("POST", `/v1/recordings/${noteId}/stop`)).status).toBe(200);
    const note = await waitForStatus(api, noteId);
    expect(note.status, note.processingError).toBe("completed");
    const all = maps(llm.calls).map(userOf);
    const readAfter = all.slice(readBefore.length);
    // The note asked for fewer parts than it has, and none it had read already.
    const parts = new Set(all.map((u) => /part (\d+) \(/.exec(u)![1]));
    expect(readAfter.length).toBeLessThan(parts.size);
    for (const u of readAfter) expect(readBefore).not.toContain(u);
    // The kept answers go once the note is written.
    expect(await kept()).toBe(0);

    // Written again cold (nothing kept now), the model's note is the same note.
    expect((await api("POST", `/v1/notes/${noteId}/enhance`, {})).status).toBe(200);
    const again = await waitForStatus(api, noteId);
    expect(again.status, again.processingError).toBe("completed");
    expect(again.enhancedNote).toBe(note.enhancedNote);
    expect(again.summary).toBe(note.summary);
  });
});
