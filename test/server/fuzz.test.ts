// Generated bad input (fast-check) against every operation the OpenAPI document lists
// and against the MCP JSON-RPC surface: path ids, query values, JSON bodies made from
// each operation's own field names with values of every wrong kind, malformed JSON and
// wrong content types. Whatever arrives, the answer is quick, below 500, in the
// documented error shape when it is an error, and says nothing of the server's insides.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { seedIds, type Ids } from "../helpers/endpoints.js";
import { appClient, startApp, type TestApp } from "../helpers/app.js";

const REST_RUNS = 9_000;
const MCP_TOOL_RUNS = 1_500;
const MCP_RAW_RUNS = 1_000;
/** No single answer may take longer (a hang shows up as a failure here, not as a stuck run). */
const ANSWER_WITHIN_MS = 5_000;

interface Operation {
  method: string;
  path: string;
  query: string[];
  /** Field names of the JSON body, when the operation takes one. */
  fields: string[] | null;
}

// The fast tier: every request goes through app.request(), no socket (see helpers/app.ts).
let server: TestApp;
let ids: Ids;
let operations: Operation[];

type Json = Record<string, any>;

function fieldNames(schema: Json | undefined, doc: Json, depth = 0): string[] {
  if (!schema || depth > 5) return [];
  if (schema.$ref) return fieldNames(doc.components.schemas[schema.$ref.split("/").pop()], doc, depth + 1);
  const nested = [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].flatMap((s: Json) =>
    fieldNames(s, doc, depth + 1),
  );
  return [...new Set([...Object.keys(schema.properties ?? {}), ...nested])];
}

beforeAll(async () => {
  server = await startApp({ args: ["--no-rate-limit"] });
  ids = await seedIds(appClient(server, server.key));
  const doc = (await (await server.fetch("/v1/openapi.json")).json()) as Json;
  operations = Object.entries(doc.paths as Json).flatMap(([path, ops]) =>
    Object.entries(ops as Json)
      // Revoking the key the fuzzer uses would end the run, not test anything.
      .filter(([method]) => !(path === "/v1/me/key" && method === "delete"))
      .map(([method, op]: [string, Json]) => ({
        method: method.toUpperCase(),
        path,
        query: (op.parameters ?? []).filter((p: Json) => p.in === "query").map((p: Json) => p.name),
        fields: op.requestBody?.content?.["application/json"]
          ? fieldNames(op.requestBody.content["application/json"].schema, doc)
          : null,
      })),
  );
}, 60_000);
afterAll(() => server?.stop());

/** Strings of the kinds that break parsers: empty, huge, control characters, NUL, markup, SQL and FTS syntax, traversal. */
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "null",
    "undefined",
    "NaN",
    "-1",
    "0",
    "1e309",
    "../../etc/passwd",
    "%00",
    "%",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    '"unterminated',
    "NEAR(a b)",
    "a* OR b^",
    "{}",
    "[]",
    "\ud800",
    "💥".repeat(50),
  ),
  fc.nat({ max: 40_000 }).map((n) => "x".repeat(n)),
);

const wrongValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    nasty,
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 0, 1e300, -1e300, 0.5),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 10 }), tie("value"), { maxKeys: 4 }),
  ),
})).value;

function pathFor(op: Operation, id: string): string {
  // Lone surrogates cannot be percent-encoded: they travel as U+FFFD, as a browser sends them.
  return op.path.replace(/\{[^}]+\}/g, encodeURIComponent(Buffer.from(id, "utf8").toString("utf8")));
}

const idArb = fc.oneof(
  fc
    .constantFrom(...(["note", "folder", "invite", "member", "group", "article", "user"] as const))
    .map((k) => ({ seeded: k })),
  nasty.map((s) => ({ raw: s.slice(0, 300) })),
);

const bodyArb = (fields: string[]) =>
  fc.oneof(
    // The operation's own fields, with values of the wrong kind (or the right one by chance).
    {
      weight: 5,
      arbitrary: fc
        .dictionary(fields.length ? fc.constantFrom(...fields) : fc.string(), wrongValue, { maxKeys: 6 })
        .map((b) => ({ json: b as unknown })),
    },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((b) => ({ json: b as unknown })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map((text) => ({ text, contentType: "application/json" })) },
    {
      weight: 1,
      arbitrary: fc.record({
        text: fc.string({ maxLength: 200 }),
        contentType: fc.constantFrom(
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "application/xml",
          "",
          "application/json; charset=latin1",
        ),
      }),
    },
  );

const requestArb = () =>
  fc.nat().chain((n) => {
    const op = operations[n % operations.length];
    return fc.record({
      op: fc.constant(op),
      id: idArb,
      query: fc.dictionary(
        op.query.length
          ? fc.oneof(fc.constantFrom(...op.query), fc.string({ maxLength: 8 }))
          : fc.string({ maxLength: 8 }),
        nasty.map((s) => s.slice(0, 2000)),
        { maxKeys: 4 },
      ),
      body: op.fields ? bodyArb(op.fields) : fc.constant(null),
    });
  });

/** What an answer must never contain: stack frames, source paths, the data dir, the key. */
function assertNothingLeaked(text: string) {
  // A stack frame: "    at fn (file:line:col)", raw or JSON-escaped.
  expect(text).not.toMatch(/(\n|\\n)\s*at \S+ \(?\S*:\d+:\d+\)?/);
  expect(text).not.toMatch(/node_modules|\/src\/|\.ts:\d+|SqliteError|DrizzleQueryError|Failed query/);
  expect(text).not.toContain(server.dataDir);
  expect(text).not.toContain(server.key);
}

async function timed<T>(what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  // The server answers in this process (app.request), often without any I/O: thousands of
  // requests in a row would otherwise be one long chain of microtasks, and the event loop,
  // with vitest's messages to this worker, would not turn until the whole run is over.
  await new Promise((resolve) => setImmediate(resolve));
  try {
    return await Promise.race([
      p,
      new Promise<T>(
        (_, reject) =>
          (timer = setTimeout(
            () => reject(new Error(`no answer within ${ANSWER_WITHIN_MS} ms: ${what}`)),
            ANSWER_WITHIN_MS,
          )),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe("generated bad input", () => {
  it(`REST: ${REST_RUNS} requests over every operation get a quick 2xx–4xx, errors in the documented shape, nothing leaked`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArb(), async ({ op, id, query, body }) => {
        const idValue = "seeded" in id ? ids[id.seeded] : id.raw;
        const qs = new URLSearchParams(Object.entries(query)).toString();
        const url = `${server.url}${pathFor(op, idValue)}${qs ? `?${qs}` : ""}`;
        const headers: Record<string, string> = { authorization: `Bearer ${server.key}` };
        let payload: string | undefined;
        if (body && "json" in body) {
          payload = JSON.stringify(body.json);
          headers["content-type"] = "application/json";
        } else if (body) {
          payload = body.text;
          if (body.contentType) headers["content-type"] = body.contentType;
        }
        const what = `${op.method} ${url.slice(0, 200)} ${payload?.slice(0, 200) ?? ""}`;
        const res = await timed(
          what,
          server.fetch(url, {
            method: op.method,
            headers,
            body: op.method === "GET" || op.method === "HEAD" ? undefined : payload,
          }),
        );
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, what).toBeLessThan(500);
        assertNothingLeaked(text);
        if (res.status >= 400) {
          const parsed = JSON.parse(text);
          expect(typeof parsed.error?.code, what).toBe("string");
          expect(typeof parsed.error?.message, what).toBe("string");
          expect(parsed.error.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: REST_RUNS, seed: Number(process.env.NOTULA_FUZZ_SEED ?? Date.now() % 2 ** 31), endOnFailure: true },
    );
    // The run reached past validation too, not only into 400s.
    const count = (pred: (s: number) => boolean) =>
      [...statuses].filter(([s]) => pred(s)).reduce((a, [, n]) => a + n, 0);
    expect(count((s) => s < 300)).toBeGreaterThan(REST_RUNS / 50);
    expect(count((s) => s === 400)).toBeGreaterThan(REST_RUNS / 10);
    expect(count((s) => s === 404)).toBeGreaterThan(0);
  }, 600_000);

  it(`MCP: ${MCP_TOOL_RUNS} tool calls with generated arguments and ${MCP_RAW_RUNS} raw JSON-RPC messages; never an internal error`, async () => {
    const mcp = new McpClient({ name: "notula-fuzz", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", server.url), {
        requestInit: { headers: { authorization: `Bearer ${server.key}` } },
        fetch: (input, init) => server.fetch(String(input), init),
      }),
    );
    const { tools } = await mcp.listTools();
    expect(tools.length).toBeGreaterThan(3);
    const toolArb = fc.record({
      name: fc.oneof(
        { weight: 9, arbitrary: fc.constantFrom(...tools.map((t) => t.name)) },
        { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
      ),
      args: fc.oneof(
        {
          weight: 4,
          arbitrary: fc.constantFrom(...tools).chain((t) => {
            const keys = Object.keys((t.inputSchema as Json).properties ?? {});
            return keys.length ? fc.dictionary(fc.constantFrom(...keys), wrongValue, { maxKeys: 5 }) : fc.constant({});
          }),
        },
        { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), wrongValue, { maxKeys: 3 }) },
      ),
    });
    await fc.assert(
      fc.asyncProperty(toolArb, async ({ name, args }) => {
        const what = `${name} ${JSON.stringify(args).slice(0, 300)}`;
        try {
          const result = await timed(what, mcp.callTool({ name, arguments: args as Record<string, unknown> }));
          assertNothingLeaked(JSON.stringify(result));
        } catch (err) {
          const e = err as { code?: number; message: string };
          if (e.message.startsWith("no answer within")) throw err;
          expect(e.code, what).not.toBe(-32603);
          assertNothingLeaked(e.message);
        }
      }),
      { numRuns: MCP_TOOL_RUNS, endOnFailure: true },
    );
    await mcp.close();

    // Raw messages, outside any SDK: random methods, params, ids and shapes.
    const rawArb = fc.oneof(
      fc.record(
        {
          jsonrpc: fc.constantFrom("2.0", "1.0", 2),
          id: fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)),
          method: fc.oneof(
            fc.constantFrom("initialize", "tools/list", "tools/call", "resources/list", "prompts/get", "ping"),
            fc.string({ maxLength: 20 }),
          ),
          params: wrongValue,
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(rawArb, async (message) => {
        const what = JSON.stringify(message).slice(0, 300);
        const res = await timed(
          what,
          server.fetch(`${server.url}/mcp`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${server.key}`,
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
            },
            body: JSON.stringify(message),
          }),
        );
        const text = await res.text();
        expect(res.status, what).toBeLessThan(500);
        assertNothingLeaked(text);
      }),
      { numRuns: MCP_RAW_RUNS, endOnFailure: true },
    );
  }, 600_000);
});
