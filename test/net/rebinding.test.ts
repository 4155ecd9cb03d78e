// DNS rebinding: a name that resolves to a public address when it is saved and to
// 127.0.0.1 when it is called. Saving checks the first answer (and passes); every client
// that connects to an address someone typed (webhooks, calendars over ICS and CalDAV,
// mail, the language model, speech and embedding servers) must refuse the second at
// connect time. The same calls through the operator's way out reach the local server,
// so the refusals are the guard's and not a broken server's.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createNet, refusedAsPrivate, type Outbound, type Purpose, type Resolve } from "../../src/net/outbound.js";
import { createChatClient } from "../../src/ai/llm/chat.js";
import { createOpenAiTranscriber } from "../../src/ai/transcription/openai.js";
import { createOpenAiEmbedder } from "../../src/ai/embeddings/openai.js";
import { readCalendar } from "../../src/calendars/sources.js";
import { pinnedSmtpTransport, SmtpAddressError } from "../../src/mail/smtp.js";
import { tempDir } from "../helpers/server.js";

const NAME = "rebind.example";
let phase: "saved" | "called" = "saved";
/** What the attacker's DNS answers: public while the admin saves, loopback afterwards. */
const resolve: Resolve = async (host) => {
  if (host !== NAME) throw Object.assign(new Error(`${host} not found`), { code: "ENOTFOUND" });
  return phase === "saved" ? [{ address: "93.184.215.14", family: 4 }] : [{ address: "127.0.0.1", family: 4 }];
};

let hits = 0;
let port = 0;
let wav = "";
const server = http.createServer(async (req, res) => {
  hits++;
  for await (const _ of req);
  const json = (body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  if (req.url?.endsWith("/chat/completions"))
    return json({ choices: [{ message: { content: "internal secrets" }, finish_reason: "stop" }] });
  if (req.url?.endsWith("/audio/transcriptions")) return json({ text: "internal secrets" });
  if (req.url?.endsWith("/embeddings")) return json({ data: [{ index: 0, embedding: [1, 0, 0] }] });
  if (req.url?.endsWith(".ics"))
    return res.writeHead(200, { "content-type": "text/calendar" }).end("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n");
  res.writeHead(200).end("ok");
});

const net = createNet({ resolve });
const limits = { maxFeedBytes: 1024 * 1024, timeoutSec: 30 };
const url = (p: string) => `http://${NAME}:${port}${p}`;

/** Each client, called once through a way out; resolves when it got an answer. */
const clients: Record<string, { purpose: Purpose; call: (out: Outbound) => Promise<unknown> }> = {
  webhook: {
    purpose: "webhooks",
    call: (out) => out.fetch(url("/hook"), { method: "POST", body: "{}", redirect: "manual" }),
  },
  "calendar (ICS)": {
    purpose: "calendars",
    call: (out) => readCalendar({ kind: "ics", url: url("/team.ics"), state: {}, outbound: out, limits }),
  },
  "calendar (CalDAV)": {
    purpose: "calendars",
    call: (out) =>
      readCalendar({
        kind: "caldav",
        url: url("/dav/"),
        username: "u",
        password: "p",
        state: {},
        outbound: out,
        limits,
      }),
  },
  "language model": {
    purpose: "ai",
    call: (out) =>
      createChatClient({ url: url("/v1"), model: "m", outbound: out }).once(
        [{ role: "user", content: "hi" }],
        AbortSignal.timeout(30_000),
      ),
  },
  "speech server": {
    purpose: "speech",
    call: (out) =>
      createOpenAiTranscriber({ url: url("/v1"), model: "whisper-1", outbound: out }).transcribe(wav, {
        signal: AbortSignal.timeout(30_000),
      } as never),
  },
  "embeddings server": {
    purpose: "embeddings",
    call: (out) => createOpenAiEmbedder({ url: url("/v1"), model: "e", dimensions: 3, outbound: out }).embed(["hello"]),
  },
  "mail server": {
    purpose: "mail",
    call: (out) => pinnedSmtpTransport({ host: NAME, port, security: "starttls", username: null, password: null }, out),
  },
};

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
  // A tenth of a second of 16 kHz mono silence.
  wav = path.join(tempDir(), "window.wav");
  const data = Buffer.alloc(3200);
  const head = Buffer.alloc(44);
  head.write("RIFF", 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write("WAVEfmt ", 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(16000, 24);
  head.writeUInt32LE(32000, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write("data", 36);
  head.writeUInt32LE(data.length, 40);
  fs.writeFileSync(wav, Buffer.concat([head, data]));
});
afterAll(() => new Promise((r) => server.close(r)));
beforeEach(() => {
  phase = "saved";
  hits = 0;
});

describe("a name that rebinds to 127.0.0.1 after it was saved", () => {
  it("passes the check when saved, for every purpose", async () => {
    for (const { purpose } of Object.values(clients))
      expect(await net.for(purpose).privateAddressesOf(new URL(url("/")))).toEqual([]);
    phase = "called";
    for (const { purpose } of Object.values(clients))
      expect(await net.for(purpose).privateAddressesOf(new URL(url("/")))).toEqual(["127.0.0.1"]);
  });

  for (const [name, { purpose, call }] of Object.entries(clients))
    it(`is refused by the ${name} client when called`, async () => {
      await net.for(purpose).privateAddressesOf(new URL(url("/")));
      phase = "called";
      const err = await call(net.for(purpose)).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, name).not.toBeNull();
      expect(
        refusedAsPrivate(err) || err instanceof SmtpAddressError || /private/.test(String((err as Error).message)),
        `${name}: ${String(err)}`,
      ).toBe(true);
      expect(hits, name).toBe(0);
      // The operator's own way out reaches the same name: the guard, not the server, refused.
      if (purpose !== "mail") {
        await call(net.for(purpose, "operator")).catch(() => {});
        expect(hits, `${name} through the operator's way out`).toBeGreaterThan(0);
      } else {
        await expect(call(net.for(purpose, "operator"))).resolves.toBeTruthy();
      }
    });

  it("refuses a literal private address before connecting, and a redirect's target", async () => {
    const out = net.for("webhooks");
    await expect(out.fetch(`http://127.0.0.1:${port}/hook`)).rejects.toSatisfy(refusedAsPrivate);
    await expect(out.fetch(`http://localhost:${port}/hook`)).rejects.toSatisfy(refusedAsPrivate);
    await expect(out.pin("10.0.0.8")).rejects.toSatisfy(refusedAsPrivate);
    expect(hits).toBe(0);
  });
});

describe("redirects through a guarded way out", () => {
  // 127.0.0.1 stands in for a public server here; 10.0.0.0/8 stays private.
  const publicLoopback = createNet({ isPrivate: (ip) => ip.startsWith("10.") });
  const seen: { url: string; authorization?: string }[] = [];
  const redirector = http.createServer((req, res) => {
    seen.push({ url: req.url!, authorization: req.headers.authorization });
    const to = /^\/to\?(.*)$/.exec(req.url!)?.[1];
    if (to) return void res.writeHead(302, { location: decodeURIComponent(to) }).end();
    res.writeHead(200).end("ok");
  });
  let base = "";
  let other = "";
  beforeAll(async () => {
    // Every loopback address, so that 127.0.0.2 is the same server under another origin.
    await new Promise<void>((r) => redirector.listen(0, "0.0.0.0", r));
    const port = (redirector.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    other = `http://127.0.0.2:${port}`;
  });
  afterAll(() => new Promise((r) => redirector.close(r)));
  beforeEach(() => void (seen.length = 0));

  it("checks each hop's target: a redirect to a private address is refused before connecting", async () => {
    const out = publicLoopback.for("calendars");
    await expect(out.fetch(`${base}/to?${encodeURIComponent("http://10.0.0.8/feed.ics")}`)).rejects.toSatisfy(
      refusedAsPrivate,
    );
    expect(seen.map((s) => s.url)).toEqual([`/to?${encodeURIComponent("http://10.0.0.8/feed.ics")}`]);
  });

  it("follows a redirect to a public address, and sends a credential only to its own origin", async () => {
    const out = publicLoopback.for("calendars");
    const headers = { authorization: "Bearer secret" };
    const same = await out.fetch(`${base}/to?${encodeURIComponent(`${base}/feed.ics`)}`, { headers });
    expect(same.status).toBe(200);
    const away = await out.fetch(`${base}/to?${encodeURIComponent(`${other}/feed.ics`)}`, { headers });
    expect(away.status).toBe(200);
    expect(seen.map((s) => [s.url, s.authorization ?? null])).toEqual([
      [`/to?${encodeURIComponent(`${base}/feed.ics`)}`, "Bearer secret"],
      ["/feed.ics", "Bearer secret"],
      [`/to?${encodeURIComponent(`${other}/feed.ics`)}`, "Bearer secret"],
      ["/feed.ics", null],
    ]);
  });
});
