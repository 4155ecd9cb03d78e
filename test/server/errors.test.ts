// Bad input always gets { error: { code, message } } with the right status: never a
// 500, a stack trace, a hang or an HTML page.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS, seedIds, type Ids } from "../helpers/endpoints.js";
import { client, errorCode, type Client } from "../helpers/http.js";
import { startServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
let api: Client;
let ids: Ids;

beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit", "--allow-private-webhooks"] });
  api = client(server.url, server.key);
  ids = await seedIds(api);
});
afterAll(() => server?.stop());

describe("errors", () => {
  it("unknown routes are 404 not_found, with or without /v1", async () => {
    for (const p of ["/v1/nothing", "/v1/notes/a/b/c", "/v2/notes", "/nothing", "/v1/notes/x/reprocess-me"]) {
      const r = await api("GET", p);
      expect(r.status, p).toBe(404);
      expect(errorCode(r)).toBe("not_found");
    }
  });

  it("a browser at an address nothing answers gets a page in the app's frame; the API keeps its JSON", async () => {
    const page = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };
    for (const p of ["/nothing", "/logout", "/admin", "/wp-login.php"]) {
      const r = await fetch(server.url + p, { headers: page, redirect: "manual" });
      expect(r.status, p).toBe(404);
      expect(r.headers.get("content-type"), p).toMatch(/^text\/html/);
      const body = await r.text();
      expect(body, p).toContain(`There is no page at ${p}.`);
      expect(body).toContain('href="/sign-in"');
    }
    for (const [p, to] of [
      ["/notes/", "/notes"],
      ["/settings", "/settings/account"],
      ["/login", "/sign-in"],
      ["/favicon.ico", /^\/assets\/icon\.[0-9a-f]{12}\.svg$/],
    ] as [string, string | RegExp][]) {
      const r = await fetch(server.url + p, { headers: page, redirect: "manual" });
      expect(r.status, p).toBe(301);
      expect(r.headers.get("location"), p).toMatch(to);
    }
    const icon = await fetch(server.url + "/favicon.ico");
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(await icon.text()).toMatch(/^<svg /);
    for (const p of ["/v1/nothing", "/mcp/nothing"]) {
      const r = await fetch(server.url + p, { headers: page });
      expect(r.status, p).toBeGreaterThanOrEqual(400);
      expect(r.headers.get("content-type"), p).toMatch(/^application\/json/);
    }
  });

  it("wrong methods are 405 with Allow", async () => {
    for (const [m, p, allow] of [
      ["PUT", "/v1/notes", "GET, HEAD, POST"],
      ["POST", "/v1/notes/abc", "DELETE, GET, HEAD, PATCH"],
      ["DELETE", "/v1/folders", "GET, HEAD, POST"],
      ["PATCH", "/v1/me", "GET, HEAD"],
      ["POST", "/healthz", "GET, HEAD"],
    ]) {
      const r = await api(m, p, m === "PUT" || m === "POST" || m === "PATCH" ? {} : undefined);
      expect(r.status, `${m} ${p}`).toBe(405);
      expect(errorCode(r)).toBe("method_not_allowed");
      expect(r.headers.get("allow")).toBe(allow);
    }
  });

  it("malformed JSON, wrong content type and non-object bodies on every endpoint with a body", async () => {
    for (const ep of ENDPOINTS.filter((e) => e.body)) {
      const path = ep.path(ids);
      const malformed = await api(ep.method, path, '{"title": ', { "content-type": "application/json" });
      expect(malformed.status, `${ep.method} ${path}`).toBe(400);
      expect(malformed.body.error.message).toMatch(/not valid JSON/);
      const form = await api(ep.method, path, "title=x", { "content-type": "application/x-www-form-urlencoded" });
      expect(form.status, `${ep.method} ${path}`).toBe(415);
      expect(errorCode(form)).toBe("unsupported_media_type");
      for (const body of ["[]", '"text"', "42", "null"]) {
        const r = await api(ep.method, path, body, { "content-type": "application/json" });
        expect(r.status, `${ep.method} ${path} ${body}`).toBe(400);
        expect(errorCode(r)).toBe("bad_request");
      }
    }
  });

  it("wrong types name the field", async () => {
    const cases: [string, string, unknown, RegExp][] = [
      ["POST", "/v1/notes", { title: 42 }, /^title: must be a string/],
      ["POST", "/v1/notes", { title: "x", participants: "ana" }, /^participants: must be an? array/],
      ["POST", "/v1/notes", { title: "x", totalDurationSec: "long" }, /^totalDurationSec/],
      ["PATCH", `/v1/notes/${ids.note}`, { tagIds: "abc" }, /^tagIds/],
      ["PATCH", `/v1/notes/${ids.note}`, { userWrittenNote: ["a"] }, /^userWrittenNote/],
      ["POST", "/v1/folders", { name: "x", ownerUserId: ids.user, isPrivate: 1 }, /^isPrivate/],
      ["POST", "/v1/invites", { email: "a@b.co", role: "king" }, /^role: must be one of admin, member/],
      ["POST", "/v1/integrations/automation/webhook", { hookUrl: "not a url" }, /hookUrl/],
      ["POST", "/v1/integrations/automation/webhook", { hookUrl: "ftp://example.com/x" }, /hookUrl/],
      ["PATCH", `/v1/workspace/members/${ids.member}`, { groupIds: [1, 2] }, /^groupIds\.0/],
    ];
    for (const [m, p, body, message] of cases) {
      const r = await api(m, p, body);
      expect(r.status, `${m} ${p} ${JSON.stringify(body)}`).toBe(400);
      expect(r.body.error.message).toMatch(message);
    }
  });

  it("JSON bodies over 1 MiB are 413; just under is accepted", async () => {
    const over = await api("POST", "/v1/notes", { title: "big", userWrittenNote: "a".repeat(1024 * 1024) });
    expect(over.status).toBe(413);
    expect(errorCode(over)).toBe("payload_too_large");
    const under = await api("POST", "/v1/notes", { title: "big", userWrittenNote: "a".repeat(400_000) });
    expect(under.status).toBe(200);
    // Without Content-Length (chunked), the limit still holds: the server answers 413
    // before the body ends. A raw socket, because an HTTP client may not report a
    // response while it is still blocked sending the body.
    const url = new URL(server.url);
    const status = await new Promise<number>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname);
      let got = "";
      const timer = setTimeout(() => reject(new Error(`no answer: ${got}`)), 10_000);
      socket.on("data", (d) => {
        got += d;
        const m = /^HTTP\/1\.1 (\d{3})/.exec(got);
        if (m) {
          clearTimeout(timer);
          socket.destroy();
          resolve(Number(m[1]));
        }
      });
      socket.on("error", () => {});
      socket.write(
        `POST /v1/notes HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${server.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      // Paced, and stopping once answered: a client that keeps writing after the
      // server's answer and close gets EPIPE and may lose the answer with it.
      const chunk = "b".repeat(64 * 1024);
      void (async () => {
        for (let sent = 0; sent < 40 && !/^HTTP/.test(got); sent++) {
          await new Promise<void>((r) => socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`, () => r()));
          await new Promise((r) => setTimeout(r, 2));
        }
        if (!/^HTTP/.test(got)) socket.write("0\r\n\r\n");
      })();
    });
    expect(status).toBe(413);
  });

  it("odd ids and query strings never produce a 500", async () => {
    const odd = [
      "%00",
      "'; DROP TABLE notes; --",
      "..%2F..%2Fetc%2Fpasswd",
      "a".repeat(5000),
      "%F0%9F%92%A9",
      "%E0%A4%A",
    ];
    for (const id of odd) {
      for (const p of [
        `/v1/notes/${id}`,
        `/v1/workspace/members/${id}`,
        `/v1/notes?search=${id}`,
        `/v1/notes?folderIds=${id}`,
        `/v1/notes?participantEmail=${id}`,
      ]) {
        const r = await api("GET", p);
        expect(r.status, p).toBeLessThan(500);
        expect(() => errorCode(r)).not.toThrow(/stack trace/);
      }
    }
    const notes = await api("GET", "/v1/notes?limit=100");
    expect(notes.status).toBe(200);
  });

  it("health and readiness need no key", async () => {
    const h = await client(server.url)("GET", "/healthz");
    expect(h.body).toEqual({ status: "ok" });
    const r = await client(server.url)("GET", "/readyz");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: "ready", database: "ok", migrations: "applied", queue: "ok", storage: "ok" });
  });
});
