// Meaning-based search through an OpenAI-compatible /v1/embeddings server (a local
// stand-in that speaks the protocol and returns hashed bag-of-words vectors).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client as httpClient } from "../helpers/http.js";
import { startServer, type TestServer } from "../helpers/server.js";

const DIMS = 64;
const requests: { model: string; input: string[]; auth?: string }[] = [];
let vendor: http.Server;
let server: TestServer;

function embed(text: string): number[] {
  const v = new Array(DIMS).fill(0);
  for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let h = 0;
    for (const ch of w) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    v[h % DIMS] += 1;
  }
  return v;
}

beforeAll(async () => {
  vendor = http.createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    const { model, input } = JSON.parse(body);
    requests.push({ model, input, auth: req.headers.authorization });
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        object: "list",
        model,
        data: (input as string[]).map((t, index) => ({ object: "embedding", index, embedding: embed(t) })),
      }),
    );
  });
  await new Promise<void>((r) => vendor.listen(0, "127.0.0.1", r));
  server = await startServer({
    args: ["--no-rate-limit"],
    env: {
      NOTULA_EMBEDDINGS: "auto",
      NOTULA_EMBEDDINGS_URL: `http://127.0.0.1:${(vendor.address() as AddressInfo).port}/v1`,
      NOTULA_EMBEDDINGS_API_KEY: "emb-key",
      NOTULA_EMBEDDINGS_MODEL: "test-embed",
      NOTULA_EMBEDDINGS_DIMENSIONS: String(DIMS),
    },
  });
});
afterAll(async () => {
  await server?.stop();
  vendor?.close();
});

describe("OpenAI-compatible embeddings", () => {
  it("indexes passages through /embeddings and searches with them", async () => {
    const api = httpClient(server.url, server.key);
    const { note } = (
      await api("POST", "/v1/notes", { title: "Harbour crane maintenance", summary: "Cranes need new cables." })
    ).body;
    const c = new Client({ name: "t", version: "1" });
    await c.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", server.url), {
        requestInit: { headers: { authorization: `Bearer ${server.key}` } },
      }),
    );
    // Words alone find the note before its passages are embedded, so the wait is for
    // the indexer to have sent them, and then for the search to see them.
    const indexed = () => requests.some((q) => q.input.some((t) => t.includes("Harbour crane maintenance")));
    let r: any;
    for (let i = 0; i < 300; i++) {
      r = (await c.callTool({ name: "svc_search_knowledge", arguments: { query: "crane cables" } })).structuredContent;
      if (indexed() && r.results.length) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(r.mode).toBe("hybrid");
    expect(r.note).toContain("openai:test-embed");
    expect(r.results[0].id).toBe(note.id);
    expect(indexed()).toBe(true);
    expect(requests.every((q) => q.model === "test-embed" && q.auth === "Bearer emb-key")).toBe(true);
    await c.close();
  });
});
