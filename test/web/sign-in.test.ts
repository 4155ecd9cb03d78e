// Sign-in over HTTP, as a script would try it: one message for every failure, limits
// per account and per address, and passwords set from the terminal.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/http.js";
import { admin, ROOT, run, startServer, tempDir, type TestServer } from "../helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ args: ["--no-rate-limit"] });
});
afterAll(() => server?.stop());

/** Opens the sign-in form, then posts it: the status and the alert's text. */
async function attempt(email: string, password: string) {
  const form = await fetch(`${server.url}/sign-in`);
  const cookie = form.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1];
  const res = await fetch(`${server.url}/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf, email, password, next: "/notes" }).toString(),
  });
  const html = await res.text();
  return {
    status: res.status,
    alert: /role="alert"[^>]*>([^<]*)</.exec(html)?.[1] ?? null,
    session: res.headers.getSetCookie().some((c) => c.startsWith("notula_session=")),
  };
}

describe("sign-in", () => {
  it("a password set with `notula admin users set-password` signs in; the form refuses a missing token", async () => {
    const set = await run(
      ["admin", "users", "set-password", "--email", "admin@notula.local", "--data-dir", server.dataDir],
      { input: "terminal password 1" },
    );
    expect(set.code, set.stderr).toBe(0);
    const ok = await attempt("admin@notula.local", "terminal password 1");
    expect(ok).toMatchObject({ status: 303, session: true });
    const short = await run(
      ["admin", "users", "set-password", "--email", "admin@notula.local", "--data-dir", server.dataDir],
      { input: "short" },
    );
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/at least 8 characters/);
    const forged = await fetch(`${server.url}/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=admin%40notula.local&password=terminal+password+1",
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.getSetCookie().some((c) => c.startsWith("notula_session="))).toBe(false);
  });

  it("ten failures lock the account for a while, with the same words for unknown emails; the right password then waits too", async () => {
    for (let i = 0; i < 10; i++)
      expect(await attempt("admin@notula.local", `wrong ${i}`)).toMatchObject({
        status: 401,
        alert: "Wrong email or password.",
      });
    expect(await attempt("nobody@example.com", "wrong")).toMatchObject({
      status: 401,
      alert: "Wrong email or password.",
    });
    const locked = await attempt("admin@notula.local", "terminal password 1");
    expect(locked.status).toBe(429);
    expect(locked.session).toBe(false);
    expect(locked.alert).toMatch(/Too many sign-in attempts\. Try again in \d+ minutes\./);
  });

  it("`notula login --browser`: a member approves a key in the web app and every CLI command then works with it", async () => {
    const ws = (await client(server.url, server.key)("GET", "/v1/me")).body.workspace.id;
    await admin(
      server.dataDir,
      ["users", "create", "--workspace", ws, "--email", "ines@example.com", "--name", "Ines", "--password-stdin"],
      "ines password 1",
    );
    const env = {
      XDG_CONFIG_HOME: tempDir("notula-browser-login-"),
      NOTULA_NO_KEYCHAIN: "1",
      NOTULA_API_KEY: "",
      NOTULA_URL: "",
      NOTULA_BROWSER: path.join(ROOT, "test/helpers/approve-cli-browser.mjs"),
      NOTULA_TEST_EMAIL: "ines@example.com",
      NOTULA_TEST_PASSWORD: "ines password 1",
    };
    const login = await run(["login", server.url, "--browser"], { env });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toMatch(/Signed in to .* as ines@example\.com/);
    const me = await run(["me", "--json"], { env });
    expect(me.code, me.stderr).toBe(0);
    // A member's key: every scope but users.
    expect(JSON.parse(me.stdout)).toMatchObject({
      user: { email: "ines@example.com" },
      scopes: ["notes", "folders", "templates"],
    });
    const created = await run(["notes", "create", "--title", "From the browser login"], { env });
    expect(created.code, created.stderr).toBe(0);
    // Logout revokes the key notula made on the server: when not at a terminal, only with --yes.
    const file = path.join(env.XDG_CONFIG_HOME, "notula", "credentials.json");
    const key = JSON.parse(fs.readFileSync(file, "utf8"))["profile:default"];
    expect(key).toMatch(/^ntl_/);
    const unconfirmed = await run(["logout"], { env });
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toMatch(/pass --yes/);
    expect((await client(server.url, key)("GET", "/v1/me")).status).toBe(200);
    const out = await run(["logout", "--yes"], { env });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toMatch(/what notula made there is revoked/);
    expect((await client(server.url, key)("GET", "/v1/me")).status).toBe(401);
    // Removing a profile signs it out the same way: the key notula made is revoked, after asking.
    expect((await run(["login", server.url, "--browser", "--profile", "laptop"], { env })).code).toBe(0);
    const laptopKey = JSON.parse(fs.readFileSync(file, "utf8"))["profile:laptop"];
    expect((await client(server.url, laptopKey)("GET", "/v1/me")).status).toBe(200);
    const asked = await run(["profiles", "remove", "laptop"], { env });
    expect(asked.code).toBe(2);
    expect(asked.stderr).toMatch(/pass --yes/);
    expect((await client(server.url, laptopKey)("GET", "/v1/me")).status).toBe(200);
    const removed = await run(["profiles", "remove", "laptop", "--yes", "--json"], { env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ removedProfile: "laptop", keyRevoked: true, keyKept: false });
    expect((await client(server.url, laptopKey)("GET", "/v1/me")).status).toBe(401);

    // A code is good once, and only with its verifier.
    const bad = await fetch(`${server.url}/cli/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: "nope", code_verifier: "x" }),
    });
    expect(bad.status).toBe(400);
    // Only a loopback address may receive the code.
    const form = await fetch(
      `${server.url}/cli/authorize?redirect_uri=${encodeURIComponent("https://evil.example/cb")}&state=s&code_challenge=${"a".repeat(43)}`,
      { redirect: "manual" },
    );
    expect(form.status).toBe(303); // signed out: to sign in first
  });
});
